export interface RateLimiter {
  /** Records an attempt for the key and says whether it stays within the limit (refused ones do not count). */
  allow(key: number | string): boolean;
}

/**
 * At most `max` attempts per key in any window of `windowMs` (a sliding window: a burst at the end of
 * one window and the start of the next is still refused). Kept in this process's memory: with several
 * instances, a client spreading its sockets over them gets the limit once per instance.
 */
export function slidingWindowLimiter(
  { max, windowMs }: { max: number; windowMs: number },
  now: () => number = Date.now,
): RateLimiter {
  const attempts = new Map<number | string, number[]>();
  let lastSweep = now();

  // Keys that went quiet would stay forever: at most once a window, drop those with no recent attempt.
  const sweep = (time: number) => {
    if (time - lastSweep < windowMs) return;
    lastSweep = time;
    for (const [key, times] of attempts) {
      if ((times.at(-1) ?? 0) <= time - windowMs) attempts.delete(key);
    }
  };

  return {
    allow(key) {
      const time = now();
      sweep(time);
      const recent = (attempts.get(key) ?? []).filter((at) => at > time - windowMs);
      const allowed = recent.length < max;
      if (allowed) recent.push(time);
      attempts.set(key, recent);
      return allowed;
    },
  };
}
