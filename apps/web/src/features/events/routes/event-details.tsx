import { ComingSoonPage } from '../../../components/layout/page';

export function EventDetailsRoute() {
  return <ComingSoonPage title="Event Details" />;
}
