import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/** A new screen starts at its top (spec §2); a hash-only change keeps the reader where they are. */
export function ScrollToTop() {
  const { pathname, search } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
  return null;
}
