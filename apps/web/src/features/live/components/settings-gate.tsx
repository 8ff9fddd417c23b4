import type { LiveConfig } from '@stagedoor/shared/live';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';

/**
 * The studio or the player once the stream settings (GET /live/config) are here: a spinner in the
 * player's place while they load, and "Try again" if they could not be.
 */
export function SettingsGate({
  config,
  children,
}: {
  config: UseQueryResult<LiveConfig>;
  children: (config: LiveConfig) => ReactNode;
}) {
  if (config.isPending) {
    return <Spinner label="Preparing the stream" className="aspect-video rounded-2xl bg-black" />;
  }
  if (config.isError) {
    return (
      <div className="flex aspect-video flex-col items-center justify-center gap-4 rounded-2xl bg-black p-6 text-center">
        <p role="alert" className="text-lg font-medium">
          The stream settings could not be loaded.
        </p>
        <Button variant="inverse" onClick={() => void config.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return children(config.data);
}
