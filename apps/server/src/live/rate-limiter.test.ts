import { describe, expect, it } from 'vitest';
import { slidingWindowLimiter } from './rate-limiter';

describe('slidingWindowLimiter', () => {
  const setUp = () => {
    let time = 1_000_000;
    const limiter = slidingWindowLimiter({ max: 5, windowMs: 5_000 }, () => time);
    return { limiter, at: (ms: number) => (time = 1_000_000 + ms) };
  };

  it('allows max attempts in any window, counting only the allowed ones', () => {
    const { limiter, at } = setUp();
    for (const ms of [0, 100, 200, 300, 400]) {
      at(ms);
      expect(limiter.allow(7)).toBe(true);
    }
    at(4_999);
    expect(limiter.allow(7)).toBe(false);
    expect(limiter.allow(8)).toBe(true);
    // The first attempt leaves the window: one more fits, not a new batch of five.
    at(5_000);
    expect(limiter.allow(7)).toBe(true);
    expect(limiter.allow(7)).toBe(false);
  });

  it('refuses a burst straddling two fixed windows', () => {
    const { limiter, at } = setUp();
    at(4_900);
    for (let n = 0; n < 5; n += 1) expect(limiter.allow('key')).toBe(true);
    at(5_100);
    expect(limiter.allow('key')).toBe(false);
    at(9_901);
    expect(limiter.allow('key')).toBe(true);
  });
});
