import { ComingSoonPage } from '../../../components/layout/page';

export function EventStreamRoute() {
  return <ComingSoonPage title="Live Stream" />;
}
