import { IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '@stagedoor/shared/limits';

export type ImageProblem = 'type' | 'size';

/** Why a picked file cannot be uploaded, or null; each form words the problem itself (spec §5). */
export function checkImageFile(file: File): ImageProblem | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > IMAGE_MAX_BYTES) return 'size';
  return null;
}

export const IMAGE_ACCEPT = IMAGE_MIME_TYPES.join(',');
