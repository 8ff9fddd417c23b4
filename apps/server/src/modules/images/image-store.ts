import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageMimeType } from '@stagedoor/shared/limits';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { images } from './images.tables';
import { isImageName, mimeOfImageName } from './image-names';

export interface StoredImage {
  data: Buffer;
  mime: ImageMimeType;
}

/** Where processed images live; callers only ever pass names made by newImageName(). */
export interface ImageStore {
  put(name: string, image: StoredImage): Promise<void>;
  get(name: string): Promise<StoredImage | null>;
  /** Deleting an image that is not there is not an error. */
  delete(name: string): Promise<void>;
}

export function createImageStore(config: Pick<Config, 'imageStorage' | 'dataDir'>, db: Database): ImageStore {
  return config.imageStorage === 'database'
    ? createDatabaseImageStore(db)
    : createDiskImageStore(path.join(config.dataDir, 'images'));
}

function createDiskImageStore(directory: string): ImageStore {
  const fileOf = (name: string): string => {
    const file = path.resolve(directory, name);
    // Belt and braces behind the name pattern: the file must sit directly in the images directory.
    if (!isImageName(name) || path.dirname(file) !== directory) throw new Error(`unsafe image name: ${name}`);
    return file;
  };

  return {
    async put(name, image) {
      await mkdir(directory, { recursive: true });
      await writeFile(fileOf(name), image.data, { flag: 'wx' });
    },
    async get(name) {
      try {
        return { data: await readFile(fileOf(name)), mime: mimeOfImageName(name) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(name) {
      await rm(fileOf(name), { force: true });
    },
  };
}

function createDatabaseImageStore(db: Database): ImageStore {
  return {
    async put(name, image) {
      await db.insert(images).values({ name, mime: image.mime, data: image.data });
    },
    async get(name) {
      const [row] = await db.select().from(images).where(eq(images.name, name));
      return row ? { data: row.data, mime: row.mime } : null;
    },
    async delete(name) {
      await db.delete(images).where(eq(images.name, name));
    },
  };
}
