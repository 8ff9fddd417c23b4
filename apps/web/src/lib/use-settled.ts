import { useEffect, useState } from 'react';

/** `value`, once it has stayed the same for `ms`: what a search or a quote asks about as the user types. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
