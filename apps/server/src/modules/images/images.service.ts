import type { ErrorCode } from '@stagedoor/shared/errors';
import { IMAGE_MIME_TYPES } from '@stagedoor/shared/limits';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import type { ImageUpload } from '../../plugins/multipart';
import { newImageName } from './image-names';
import { workQueue } from './image-work';
import type { StoredImage } from './image-store';

const IMAGE_UNREADABLE_MESSAGE = 'The image is damaged or could not be read';
const IMAGE_DIMENSIONS_MESSAGE = 'The image has too many pixels';

// A 6000 × 4000 camera photo, far above any header or poster; decoding one takes about 100 MB.
const MAX_INPUT_PIXELS = 25_000_000;
// Decodes at once (one per core of a small server), and uploads waiting their turn before a 503.
const IMAGE_WORK_AT_ONCE = 2;
const IMAGE_WORK_WAITING = 16;
const imageWork = workQueue(IMAGE_WORK_AT_ONCE, IMAGE_WORK_WAITING);
const MAX_OUTPUT_SIDE = 2560;

/**
 * The image rules in one place: JPEG or PNG by content (never by name or declared type), decoded and
 * re-encoded upright, bounded in pixels, without any metadata (EXIF, GPS, comments). The size limit is
 * enforced earlier, while the upload streams in (readMultipartForm, with the kind's size message).
 */
async function normalizeImage(upload: ImageUpload): Promise<StoredImage> {
  const detected = await fileTypeFromBuffer(upload.data);
  const mime = IMAGE_MIME_TYPES.find((type) => type === detected?.mime);
  if (!mime) throw imageError('UNSUPPORTED_MEDIA_TYPE', upload.field, upload.kind.type);

  try {
    // sharp writes no metadata unless asked to (keepMetadata/withExif), so re-encoding strips it all.
    const pipeline = sharp(upload.data, { limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      .resize({ width: MAX_OUTPUT_SIDE, height: MAX_OUTPUT_SIDE, fit: 'inside', withoutEnlargement: true });
    const encoded = mime === 'image/png' ? pipeline.png() : pipeline.jpeg({ quality: 85 });
    return { data: await imageWork(() => encoded.toBuffer()), mime };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && error.message.includes('pixel limit')) {
      throw imageError('PAYLOAD_TOO_LARGE', upload.field, IMAGE_DIMENSIONS_MESSAGE);
    }
    throw imageError('VALIDATION_FAILED', upload.field, IMAGE_UNREADABLE_MESSAGE);
  }
}

/**
 * Stores the new image and runs the database write that points to it, keeping the two together: if the
 * write fails the new image is deleted, and once it succeeded the image it replaced is deleted.
 */
export async function saveImageWith<T>(
  deps: Pick<Deps, 'images' | 'log'>,
  upload: ImageUpload,
  write: (imageName: string) => Promise<{ result: T; replacedImage: string | null }>,
): Promise<T> {
  const image = await normalizeImage(upload);
  const name = newImageName(image.mime);
  await deps.images.put(name, image);

  let outcome: Awaited<ReturnType<typeof write>>;
  try {
    outcome = await write(name);
  } catch (error) {
    await discardImage(deps, name);
    throw error;
  }
  if (outcome.replacedImage && outcome.replacedImage !== name)
    await discardImage(deps, outcome.replacedImage);
  return outcome.result;
}

/** A leftover file wastes space but breaks nothing, so a failed delete must not fail the request. */
export async function discardImage(deps: Pick<Deps, 'images' | 'log'>, name: string): Promise<void> {
  try {
    await deps.images.delete(name);
  } catch (error) {
    deps.log.warn({ err: error, image: name }, 'could not delete an image no longer in use');
  }
}

function imageError(code: ErrorCode, field: string, message: string): AppError {
  return new AppError(code, message, { [field]: message });
}
