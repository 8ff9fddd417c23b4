import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useOnVisible } from '../../lib/use-on-visible';
import { Button } from './button';
import { Spinner } from './spinner';

interface LoadMoreProps {
  /** The list's paged read. */
  pages: Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'isError' | 'fetchNextPage'>;
  /** What the list holds, as the spinner and the button name it: "events", "tickets". */
  noun: string;
}

/**
 * The foot of an endless list: the next page loads as the user scrolls near it, and a button serves
 * anyone who does not scroll. Nothing once the last page is in.
 */
export function LoadMore({ pages, noun }: LoadMoreProps) {
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = pages;
  const sentinelRef = useOnVisible<HTMLDivElement>(
    () => void fetchNextPage(),
    hasNextPage && !isFetchingNextPage && !isError,
  );
  if (!hasNextPage) return null;
  return (
    <div ref={sentinelRef} className="mt-10 flex justify-center">
      {isFetchingNextPage ? (
        <Spinner label={`Loading more ${noun}`} />
      ) : (
        <Button variant="secondary" onClick={() => void fetchNextPage()}>
          Load more {noun}
        </Button>
      )}
    </div>
  );
}
