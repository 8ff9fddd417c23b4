import multipart from '@fastify/multipart';
import type { ImageMessages } from '@stagedoor/shared/images';
import { IMAGE_MAX_BYTES } from '@stagedoor/shared/limits';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

const FIELD_MAX_BYTES = 16 * 1024;
export const TOO_MANY_FIELDS_MESSAGE = 'The form has too many fields';
export const MALFORMED_FORM_MESSAGE = 'The form could not be read: it is malformed or incomplete';

export async function setupMultipart(app: FastifyInstance): Promise<void> {
  // Every upload of the product is one image next to a few short text fields.
  await app.register(multipart, {
    limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 20, fieldSize: FIELD_MAX_BYTES, parts: 21 },
  });
}

/** An image as a form sent it, ready for the images module: its field, its bytes and its form's wording. */
export interface ImageUpload {
  field: string;
  data: Buffer;
  kind: ImageMessages;
}

interface MultipartForm<Field extends string> {
  fields: Record<string, string>;
  images: Partial<Record<Field, ImageUpload>>;
}

/** The image fields a form accepts, each with its form's wording (a file over the limit, of a wrong type). */
type ImageFields<Field extends string> = Readonly<Record<Field, ImageMessages>>;

/**
 * Reads a whole multipart form into memory, accepting files only in `imageFields`, handed back as image
 * uploads. A file over the limit is a 413 naming its field; an empty file part (a form sent with no file
 * chosen) counts as no file.
 */
export async function readMultipartForm<Field extends string>(
  request: FastifyRequest,
  imageFields: ImageFields<Field>,
): Promise<MultipartForm<Field>> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Expected a multipart/form-data request');
  }
  const { FieldsLimitError, FilesLimitError, PartsLimitError, RequestFileTooLargeError } =
    request.server.multipartErrors;
  const form: MultipartForm<Field> = { fields: {}, images: {} };
  try {
    for await (const part of request.parts()) {
      const field = part.fieldname;
      if (part.type === 'field') {
        if (part.valueTruncated) {
          throw new AppError('VALIDATION_FAILED', `${field} is too long`, {
            [field]: `${field} is too long`,
          });
        }
        form.fields[field] = String(part.value);
        continue;
      }
      if (!isImageField(imageFields, field)) {
        throw new AppError('VALIDATION_FAILED', `Unexpected file field ${field}`, {
          [field]: 'Unexpected file',
        });
      }
      const kind = imageFields[field];
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (error) {
        if (error instanceof RequestFileTooLargeError) throw fileTooLarge(field, kind.size);
        throw error;
      }
      if (part.file.truncated) throw fileTooLarge(field, kind.size);
      if (data.length > 0) form.images[field] = { field, data, kind };
    }
  } catch (error) {
    if (error instanceof FilesLimitError) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'Only one file can be uploaded at a time');
    }
    if (error instanceof FieldsLimitError || error instanceof PartsLimitError) {
      throw new AppError('PAYLOAD_TOO_LARGE', TOO_MANY_FIELDS_MESSAGE);
    }
    // The parser's own complaints (no boundary, a body cut short, a malformed part header) are plain
    // errors: the body is at fault, not the server. Ours and the plugin's (limits) carry their status.
    if (error instanceof Error && !('statusCode' in error)) {
      throw new AppError('VALIDATION_FAILED', MALFORMED_FORM_MESSAGE);
    }
    throw error;
  }
  return form;
}

function isImageField<Field extends string>(fields: ImageFields<Field>, field: string): field is Field {
  return Object.hasOwn(fields, field);
}

function fileTooLarge(field: string, message: string): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', message, { [field]: message });
}
