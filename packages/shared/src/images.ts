import type { Role } from './accounts';
import { IMAGE_MAX_BYTES } from './limits';

export const IMAGE_MAX_MEGABYTES = IMAGE_MAX_BYTES / 1024 / 1024;

/**
 * What is said of a picked or uploaded file of the wrong type or too large, by the web form before it
 * sends and by the server after (spec §5): the profile form and the event form each have their words.
 */
export interface ImageMessages {
  type: string;
  size: string;
}

export const PROFILE_IMAGE_MESSAGES: ImageMessages = {
  type: 'Only JPG and PNG images are allowed',
  size: `File size must be less than ${IMAGE_MAX_MEGABYTES}MB`,
};

export const EVENT_IMAGE_MESSAGES: ImageMessages = {
  type: 'Please select a valid JPG or PNG image',
  size: `Image size must be less than ${IMAGE_MAX_MEGABYTES}MB`,
};

/** The hint under an image field: the types and the size it takes. */
export const IMAGE_FILES_HINT = `JPG or PNG, up to ${IMAGE_MAX_MEGABYTES}MB.`;

/** Where the API serves each kind of image (under /api/): its routes and every link to an image read this. */
export const IMAGE_FOLDERS = {
  event: 'events/image',
  creatorHeader: 'creators/header-image',
  creatorProfile: 'creators/profile-image',
  userProfile: 'users/profile-image',
} as const;

const imagePath = (folder: string, file: string) => `/api/${folder}/${encodeURIComponent(file)}`;

/** The address of an image, by the file name the API puts in events and user objects. */
export const imageUrls = {
  event: (file: string) => imagePath(IMAGE_FOLDERS.event, file),
  creatorHeader: (file: string) => imagePath(IMAGE_FOLDERS.creatorHeader, file),
  profile: (role: Role, file: string) =>
    imagePath(role === 'creator' ? IMAGE_FOLDERS.creatorProfile : IMAGE_FOLDERS.userProfile, file),
};
