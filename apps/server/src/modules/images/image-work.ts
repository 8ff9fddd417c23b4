import { AppError } from '../../errors';

export const IMAGES_BUSY_MESSAGE =
  'Too many images are being processed right now. Please try again in a moment.';

/**
 * Runs at most `atOnce` tasks at a time and keeps at most `waiting` more in line; any more are refused
 * at once with a 503. Decoding an image takes memory in proportion to its pixels: eight large uploads
 * at once took 400 MB, which a line keeps to what `atOnce` decodes need.
 */
export function workQueue(atOnce: number, waiting: number) {
  let running = 0;
  const line: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running < atOnce) running += 1;
    else if (line.length < waiting) await new Promise<void>((start) => line.push(start));
    else throw new AppError('SERVICE_UNAVAILABLE', IMAGES_BUSY_MESSAGE);
    try {
      return await task();
    } finally {
      // The slot goes to the next in line, or is freed.
      const next = line.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
