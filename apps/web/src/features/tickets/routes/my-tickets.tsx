import { ComingSoonPage } from '../../../components/layout/page';

export function MyTicketsRoute() {
  return <ComingSoonPage title="My Tickets" />;
}
