import { Compass, Ticket, UserRound } from 'lucide-react';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { StatCard } from '../../../components/ui/stat-card';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useOrderCount } from '../api/dashboard';

export function UserDashboardRoute() {
  useDocumentTitle('Dashboard');
  const user = useCurrentUser();
  const ticketCount = useOrderCount(user);

  return (
    <Page title="Dashboard" description={`Welcome back, ${user.email}`}>
      <div className="grid gap-6 md:grid-cols-3">
        {ticketCount.isError && ticketCount.data === undefined ? (
          <LoadError
            message="Error fetching orders"
            onRetry={() => void ticketCount.refetch()}
            isRetrying={ticketCount.isFetching}
            className="p-6"
          />
        ) : (
          <StatCard
            label="My Tickets"
            value={ticketCount.data ?? null}
            icon={Ticket}
            to={paths.userMyTickets}
          />
        )}
        <Card className="flex flex-col items-start gap-4 p-6">
          <span className="rounded-xl bg-brand-50 p-3 text-brand-600">
            <UserRound aria-hidden className="size-6" />
          </span>
          <p className="text-sm text-slate-600">Keep your name and nickname up to date.</p>
          <ButtonLink to={paths.userProfile} variant="secondary" size="sm">
            Edit Profile
          </ButtonLink>
        </Card>
        <Card className="flex flex-col items-start gap-4 p-6">
          <span className="rounded-xl bg-brand-50 p-3 text-brand-600">
            <Compass aria-hidden className="size-6" />
          </span>
          <p className="text-sm text-slate-600">Find your next live show.</p>
          <ButtonLink to={paths.events} size="sm">
            Browse events
          </ButtonLink>
        </Card>
      </div>
    </Page>
  );
}
