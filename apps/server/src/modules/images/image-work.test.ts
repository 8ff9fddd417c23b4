import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { IMAGES_BUSY_MESSAGE, workQueue } from './image-work';

describe('the image work queue', () => {
  it('runs a few at once, keeps a few in line, and refuses the rest at once with 503', async () => {
    const run = workQueue(2, 3);
    let running = 0;
    let mostAtOnce = 0;
    const gates: Array<() => void> = [];
    const task = () =>
      run(async () => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise<void>((open) => gates.push(open));
        running -= 1;
        return 'done';
      });

    const accepted = Array.from({ length: 5 }, task);
    const refused = await task().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: IMAGES_BUSY_MESSAGE });

    // Open each gate as its task starts: the ones in line start only as others finish.
    while (gates.length > 0 || running > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      gates.shift()?.();
    }
    expect(await Promise.all(accepted)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(mostAtOnce).toBe(2);
    // Everything finished: the queue takes work again.
    expect(await run(async () => 'again')).toBe('again');
  });

  it('frees the slot of a task that failed', async () => {
    const run = workQueue(1, 0);
    await expect(run(async () => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    expect(await run(async () => 'next')).toBe('next');
  });
});
