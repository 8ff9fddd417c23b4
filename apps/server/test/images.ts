import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import type { App } from '../src/app';
import { images } from '../src/db/schema';

/** How many images the app's store holds, whichever driver it uses. */
export async function storedImageCount(app: App): Promise<number> {
  if (app.deps.config.imageStorage === 'database') {
    const [row] = await app.deps.db.select({ total: count() }).from(images);
    return row?.total ?? 0;
  }
  return readdir(path.join(app.deps.config.dataDir, 'images')).then(
    (files) => files.length,
    () => 0,
  );
}

/** A PNG carrying EXIF text that must never be served back. */
export function pngWithMetadata(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#e11d48' } })
    .withExif({ IFD0: { Copyright: 'secret-copyright', ImageDescription: 'taken at home' } })
    .png()
    .toBuffer();
}

/** A JPEG stored sideways: its EXIF orientation (6) says "rotate 90° to display". */
export function sidewaysJpeg(width = 80, height = 40): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2563eb' } })
    .withExif({ IFD0: { Copyright: 'secret-copyright' } })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

/** A tiny file whose header claims a huge picture: decoding it would take gigabytes. */
export async function pixelBombPng(width = 30_000, height = 30_000): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
      .png()
      .toBuffer(),
  );
  // IHDR starts after the 8-byte signature: length (4), type (4), width (4), height (4), … then its CRC.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
