import { ZWatchLinkResponse } from '@stagedoor/shared/accounts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { PageSpinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { api, errorMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { startStreamReads } from '../api/stream';

const LINK_FAILED_MESSAGE = 'This watch link could not be opened. Log in to watch with your account.';

/**
 * /watch/{token}: the link in every mail that leads to a show. It signs the ticket holder in, whatever
 * device the mail is read on, and lands on the stream; the stream's screen, its event and its settings
 * start loading while the link is checked. A bad or stale link says so and offers the login.
 */
export function WatchLinkRoute() {
  useDocumentTitle('Opening your show');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { setToken, updateUser } = useSession();
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    // The stream's screen is the next one: fetched beside the check, not after it.
    void import('./event-stream');
    api
      .post(
        '/auth/watch-link',
        { token },
        { schema: ZWatchLinkResponse, anonymous: true, signal: controller.signal },
      )
      .then(({ access_token, user, eventId }) => {
        setToken(access_token);
        updateUser(user);
        startStreamReads(queryClient, String(eventId), access_token);
        navigate(paths.eventStream(eventId), { replace: true });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setRefusal(errorMessage(error, LINK_FAILED_MESSAGE));
      });
    return () => controller.abort();
  }, [token, navigate, queryClient, setToken, updateUser]);

  if (!refusal) return <PageSpinner label="Opening your show" />;
  return (
    <Page title="This link does not open a show" width="narrow">
      <div className="space-y-6">
        <Notice>{refusal}</Notice>
        <div className="flex flex-wrap gap-3">
          <ButtonLink to={paths.userLogin()}>Log in</ButtonLink>
          <ButtonLink to={paths.events} variant="secondary">
            Browse events
          </ButtonLink>
        </div>
      </div>
    </Page>
  );
}
