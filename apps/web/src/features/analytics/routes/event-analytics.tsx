import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { eventQuery } from '../../../lib/reads';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEventAnalytics } from '../api/analytics';
import { Figures } from '../components/figures';
import { Funnel } from '../components/funnel';
import { SalesPerDay } from '../components/sales-per-day';
import { SalesPerType } from '../components/sales-per-type';
import { ViewersOverTime } from '../components/viewers-over-time';

/** A show's numbers for its creator: the figures, then sales, the way to a purchase, viewers. */
export function EventAnalyticsRoute() {
  const { id = '' } = useParams();
  const analytics = useEventAnalytics(id);
  const event = useQuery(eventQuery(id));
  const name = event.data?.name;
  useDocumentTitle(name ? `Analytics · ${name}` : 'Analytics');

  return (
    <Page
      title="Show analytics"
      description={name}
      actions={
        <ButtonLink to={paths.creatorMyEvents} variant="secondary">
          My Events
        </ButtonLink>
      }
    >
      {analytics.isPending ? (
        <Spinner label="Loading analytics" />
      ) : analytics.data === undefined ? (
        <LoadError
          message={errorMessage(analytics.error, 'Failed to load the analytics')}
          onRetry={() => void analytics.refetch()}
          isRetrying={analytics.isFetching}
        />
      ) : (
        <div className="space-y-10">
          <Figures analytics={analytics.data} />
          <SalesPerDay sales={analytics.data.sales} timeZone={analytics.data.timeZone} />
          <SalesPerType sales={analytics.data.sales} />
          <Funnel funnel={analytics.data.funnel} />
          <ViewersOverTime viewers={analytics.data.viewers} timeZone={analytics.data.timeZone} />
        </div>
      )}
    </Page>
  );
}
