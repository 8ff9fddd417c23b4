import { useEffect, useRef, type UIEvent } from 'react';

/** How close to the end (px) still counts as reading the newest messages. */
const STICKY_BOTTOM_PX = 48;

/**
 * A chat list that keeps its newest message in view when `newest` changes, unless the reader scrolled
 * back through older ones: `listRef` and `onScroll` go on the scrolling list, `follow()` makes it follow
 * again (the reader sent a message).
 */
export function useFollowNewest(newest: unknown) {
  const listRef = useRef<HTMLDivElement>(null);
  const followsNewest = useRef(true);

  useEffect(() => {
    const list = listRef.current;
    if (list && followsNewest.current) list.scrollTop = list.scrollHeight;
  }, [newest]);

  return {
    listRef,
    onScroll: ({ currentTarget: list }: UIEvent<HTMLDivElement>) => {
      followsNewest.current = list.scrollHeight - list.scrollTop - list.clientHeight < STICKY_BOTTOM_PX;
    },
    follow: () => {
      followsNewest.current = true;
    },
  };
}
