import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/session';
import { useMyOrders } from '../api/orders';
import { TicketCard } from '../components/ticket-card';

/** The one tickets screen, behind both /user/dashboard/my-tickets and /creators/dashboard/my-tickets. */
export function MyTicketsRoute() {
  const user = useCurrentUser();
  const orders = useMyOrders(user.id);

  return (
    <Page title="My Tickets">
      {orders.isPending ? (
        <PageSpinner label="Loading your tickets" />
      ) : !orders.data?.length ? (
        <Card className="space-y-4 p-10 text-center text-slate-600">
          <p>Todavía no tienes entradas.</p>
          <ButtonLink to={paths.events}>Explorar eventos</ButtonLink>
        </Card>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {orders.data.map((order) => (
            <li key={order.id}>
              <TicketCard order={order} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
