import { CalendarClock, CalendarDays, Ticket } from 'lucide-react';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { StatCard } from '../../../components/ui/stat-card';
import { paths } from '../../../config/paths';
import { formatMoney } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCreatorStats } from '../api/dashboard';

export function CreatorDashboardRoute() {
  useDocumentTitle('Creator Dashboard');
  const user = useCurrentUser();
  const { figures, isError, isRetrying, retry } = useCreatorStats(user);

  return (
    <Page
      title="Creator Dashboard"
      description={`Welcome back, ${user.firstName}`}
      actions={
        <div className="flex flex-wrap gap-3">
          <ButtonLink to={paths.createEvent}>Create New Event</ButtonLink>
          <ButtonLink to={paths.creatorEarnings} variant="secondary">
            Earnings
          </ButtonLink>
          <ButtonLink to={paths.creatorProfileSettings} variant="secondary">
            Edit Profile
          </ButtonLink>
        </div>
      }
    >
      {isError && !figures ? (
        <LoadError message="Error fetching creator stats" onRetry={retry} isRetrying={isRetrying} />
      ) : (
        <div className="grid gap-6 md:grid-cols-3">
          <StatCard
            label="My Events"
            value={figures?.totalEvents ?? null}
            icon={CalendarDays}
            to={paths.creatorMyEvents}
          />
          <StatCard label="Upcoming Events" value={figures?.upcomingEvents ?? null} icon={CalendarClock} />
          <StatCard
            label="Tickets Sold"
            value={figures?.ticketsSold ?? null}
            detail={figures ? `${formatMoney(figures.revenue)} revenue` : undefined}
            icon={Ticket}
          />
        </div>
      )}
    </Page>
  );
}
