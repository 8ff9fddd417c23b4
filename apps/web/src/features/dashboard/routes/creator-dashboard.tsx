import { CalendarClock, CalendarDays, Ticket } from 'lucide-react';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { StatCard } from '../../../components/ui/stat-card';
import { paths } from '../../../config/paths';
import { formatMoney } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session';
import { useCreatorStats } from '../api/dashboard';

export function CreatorDashboardRoute() {
  const user = useCurrentUser();
  const stats = useCreatorStats(user);

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
      <div className="grid gap-6 md:grid-cols-3">
        <StatCard
          label="My Events"
          value={stats.totalEvents}
          icon={CalendarDays}
          to={paths.creatorMyEvents}
        />
        <StatCard label="Upcoming Events" value={stats.upcomingEvents} icon={CalendarClock} />
        <StatCard
          label="Tickets Sold"
          value={stats.ticketsSold}
          detail={`${formatMoney(stats.revenue)} revenue`}
          icon={Ticket}
        />
      </div>
    </Page>
  );
}
