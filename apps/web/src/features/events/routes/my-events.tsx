import { ComingSoonPage } from '../../../components/layout/page';

export function MyEventsRoute() {
  return <ComingSoonPage title="My Events" />;
}
