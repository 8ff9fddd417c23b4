import { useEffect, useRef } from 'react';

/**
 * Calls `onVisible` whenever the returned element scrolls into view (and again if it is still in view
 * once `enabled` turns back on): the sentinel under an endless list. `rootMargin` starts the next load
 * a little before the user reaches the bottom.
 */
export function useOnVisible<T extends Element>(onVisible: () => void, enabled: boolean) {
  const ref = useRef<T>(null);
  const callback = useRef(onVisible);

  useEffect(() => {
    callback.current = onVisible;
  });

  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);

  return ref;
}
