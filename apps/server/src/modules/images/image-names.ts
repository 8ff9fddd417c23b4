import { randomUUID } from 'node:crypto';
import type { ImageMimeType } from '@stagedoor/shared/limits';

const EXTENSION_BY_MIME: Record<ImageMimeType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

// Only names this server generated can pass, so nothing else from a URL ever reaches the storage.
const IMAGE_NAME_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png)$/;

export function newImageName(mime: ImageMimeType): string {
  return `${randomUUID()}.${EXTENSION_BY_MIME[mime]}`;
}

export function isImageName(name: string): boolean {
  return IMAGE_NAME_PATTERN.test(name);
}

export function mimeOfImageName(name: string): ImageMimeType {
  return name.endsWith('.png') ? 'image/png' : 'image/jpeg';
}
