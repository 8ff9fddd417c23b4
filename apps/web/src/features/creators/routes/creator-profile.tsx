import type { PublicCreator } from '@stagedoor/shared/creators';
import { imageUrls } from '@stagedoor/shared/images';
import { useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Avatar } from '../../../components/ui/avatar';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCreatorEventsByNickname, useCreatorProfile } from '../api/creators';
import { CreatorBanner } from '../components/creator-banner';
import { CreatorEventCard } from '../components/creator-event-card';

export function CreatorProfileRoute() {
  const { nickname = '' } = useParams();
  const creator = useCreatorProfile(nickname);
  useDocumentTitle(creator.data && `${creator.data.firstName} ${creator.data.lastName}`);

  if (creator.isPending) {
    return (
      <p role="status" className="px-4 py-24 text-center text-slate-600">
        Loading creator profile...
      </p>
    );
  }
  if (creator.isError) {
    // Only a 404 means there is no such creator; any other failure may pass on a second try.
    if (creator.error instanceof ApiError && creator.error.status === 404) {
      return (
        <Page title="Creator not found" width="narrow">
          <ButtonLink to={paths.events}>Browse events</ButtonLink>
        </Page>
      );
    }
    return (
      <Page title="Creator profile" width="narrow">
        <LoadError
          message="Failed to load creator profile"
          onRetry={() => void creator.refetch()}
          isRetrying={creator.isFetching}
        />
      </Page>
    );
  }
  return <CreatorProfile creator={creator.data} />;
}

function CreatorProfile({ creator }: { creator: PublicCreator }) {
  const events = useCreatorEventsByNickname(creator.nickname);
  const { headerImageUrl, profileImageUrl, biography } = creator.creatorInfo;

  return (
    <div>
      <CreatorBanner file={headerImageUrl} />
      <div className="mx-auto w-full max-w-6xl px-4 pb-12 sm:px-6 lg:px-8">
        <div className="-mt-14 flex flex-col items-start gap-4 sm:flex-row sm:items-end">
          <Avatar
            src={profileImageUrl && imageUrls.profile('creator', profileImageUrl)}
            firstName={creator.firstName}
            lastName={creator.lastName}
            className="size-28 text-3xl"
          />
          <div>
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">
              {`${creator.firstName} ${creator.lastName}`}
            </h1>
            <p className="text-slate-500">@{creator.nickname}</p>
          </div>
        </div>
        {biography ? <p className="mt-6 max-w-3xl whitespace-pre-line text-slate-700">{biography}</p> : null}

        <h2 className="mt-12 mb-6 text-2xl font-semibold text-slate-900">Events</h2>
        {events.isPending ? (
          <Spinner label="Loading events" />
        ) : !events.data ? (
          <LoadError
            message="Error fetching creator events"
            onRetry={() => void events.refetch()}
            isRetrying={events.isFetching}
          />
        ) : events.data.length ? (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {events.data.map((event) => (
              <li key={event.id}>
                <CreatorEventCard event={event} />
              </li>
            ))}
          </ul>
        ) : (
          <Card className="p-10 text-center text-slate-600">No events found for this creator.</Card>
        )}
      </div>
    </div>
  );
}
