import { ComingSoonPage } from '../../../components/layout/page';

export function EventListRoute() {
  return <ComingSoonPage title="Upcoming Events" />;
}
