import { useEffect } from 'react';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { LoadMore } from '../../../components/ui/load-more';
import { PageSpinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { preloadPage } from '../../../lib/page-preload';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMyOrders } from '../api/orders';
import { TicketCard } from '../components/ticket-card';

/** The one tickets screen, behind both /user/dashboard/my-tickets and /creators/dashboard/my-tickets. */
export function MyTicketsRoute() {
  useDocumentTitle('My Tickets');
  const user = useCurrentUser();
  const orders = useMyOrders(user.id);
  const holdsTickets =
    orders.data?.some((order) => order.status === 'completed' && order.givenTo === null) ?? false;
  // The stream's screen is where a ticket leads: its code loads now, not when the fan opens it.
  useEffect(() => {
    if (holdsTickets) void preloadPage('stream');
  }, [holdsTickets]);

  return (
    <Page title="My Tickets">
      {orders.isPending ? (
        <PageSpinner label="Loading your tickets" />
      ) : !orders.data ? (
        // Nothing loaded and nothing loading: the read failed (a failed refresh keeps the list it had).
        <LoadError
          message="Error fetching orders"
          onRetry={() => void orders.refetch()}
          isRetrying={orders.isFetching}
        />
      ) : !orders.data.length ? (
        <Card className="space-y-4 p-10 text-center text-slate-600">
          <p>Todavía no tienes entradas.</p>
          <ButtonLink to={paths.events}>Explorar eventos</ButtonLink>
        </Card>
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {orders.data.map((order) => (
              <li key={order.id}>
                <TicketCard order={order} />
              </li>
            ))}
          </ul>
          <LoadMore pages={orders} noun="tickets" />
        </>
      )}
    </Page>
  );
}
