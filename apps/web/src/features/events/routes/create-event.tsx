import { ComingSoonPage } from '../../../components/layout/page';

export function CreateEventRoute() {
  return <ComingSoonPage title="Create Event" />;
}
