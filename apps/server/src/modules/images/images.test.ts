import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionUser } from '@stagedoor/shared/accounts';
import type { ErrorBody } from '@stagedoor/shared/errors';
import { IMAGE_MAX_BYTES } from '@stagedoor/shared/limits';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator, postForm, type FormFile } from '../../../test/factories';
import { pixelBombPng, pngWithMetadata, sidewaysJpeg, storedImageCount } from '../../../test/images';
import { createTestApp } from '../../../test/test-app';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const png = async (): Promise<FormFile> => ({
  data: await pngWithMetadata(),
  filename: 'header.png',
  type: 'image/png',
});

describe.each(['disk', 'database'] as const)('images stored on %s', async (storage) => {
  const app = await createTestApp({ IMAGE_STORAGE: storage });
  afterAll(() => app.close());

  it('stores a header image and serves it back, typed, cached for good, without metadata', async () => {
    const creator = await createCreator(app);
    const response = await postForm(
      app,
      '/api/auth/profile/creator',
      creator.token,
      { firstName: 'Pix' },
      {
        headerImageUrl: await png(),
      },
    );
    expect(response.statusCode).toBe(200);
    const user = response.json<SessionUser>();
    expect(user.firstName).toBe('Pix');
    expect(user.headerImageUrl).toMatch(/^[0-9a-f-]{36}\.png$/);

    const served = await api(app, {
      method: 'GET',
      url: `/api/creators/header-image/${user.headerImageUrl}`,
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe(IMMUTABLE);
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 64, height: 48 });
    expect(metadata.exif).toBeUndefined();
    expect(served.rawPayload.includes('secret-copyright')).toBe(false);

    const profile = await api(app, {
      method: 'GET',
      url: '/api/auth/profile/creator',
      headers: authHeader(creator.token),
    });
    expect(profile.json<SessionUser>().headerImageUrl).toBe(user.headerImageUrl);
  });

  it('turns a sideways JPEG upright and strips its EXIF', async () => {
    const creator = await createCreator(app);
    const response = await postForm(
      app,
      '/api/auth/profile/creator/profile-image',
      creator.token,
      {},
      {
        profileImageUrl: { data: await sidewaysJpeg(), filename: 'me.jpeg', type: 'image/jpeg' },
      },
    );
    expect(response.statusCode).toBe(200);
    const user = response.json<SessionUser>();
    expect(user.profileImageUrl).toMatch(/^[0-9a-f-]{36}\.jpg$/);

    const served = await api(app, {
      method: 'GET',
      url: `/api/creators/profile-image/${user.profileImageUrl}`,
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe(IMMUTABLE);
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 40, height: 80 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
  });

  it('deletes the image a new upload replaces', async () => {
    const creator = await createCreator(app);
    const upload = async () =>
      (
        await postForm(app, '/api/auth/profile/creator', creator.token, {}, { headerImageUrl: await png() })
      ).json<SessionUser>().headerImageUrl;
    const first = await upload();
    const second = await upload();
    expect(second).not.toBe(first);
    expect((await api(app, { method: 'GET', url: `/api/creators/header-image/${first}` })).statusCode).toBe(
      404,
    );
    expect((await api(app, { method: 'GET', url: `/api/creators/header-image/${second}` })).statusCode).toBe(
      200,
    );
  });

  it('leaves no image behind when the account update fails', async () => {
    const owner = await createCreator(app);
    const creator = await createCreator(app);
    const before = await storedImageCount(app);
    const response = await postForm(
      app,
      '/api/auth/profile/creator',
      creator.token,
      { nickname: owner.user.nickname },
      {
        headerImageUrl: await png(),
      },
    );
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().fields).toEqual({ nickname: 'This nickname is already taken' });
    expect(await storedImageCount(app)).toBe(before);
  });
});

describe('image rules', async () => {
  const app = await createTestApp();
  afterAll(() => app.close());

  const uploadHeader = async (file: FormFile | FormFile[]) => {
    const creator = await createCreator(app);
    return postForm(
      app,
      '/api/auth/profile/creator',
      creator.token,
      { firstName: 'Rules' },
      { headerImageUrl: file },
    );
  };

  it('judges the type by content: a .png that is not a PNG is a 415', async () => {
    const response = await uploadHeader({
      data: Buffer.from('just some text'),
      filename: 'photo.png',
      type: 'image/png',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Only JPG and PNG images are allowed',
      fields: { headerImageUrl: 'Only JPG and PNG images are allowed' },
    });
  });

  it('refuses real images of other types', async () => {
    const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const response = await uploadHeader({ data: gif, filename: 'anim.jpg', type: 'image/jpeg' });
    expect(response.statusCode).toBe(415);
  });

  it(`refuses a file over ${IMAGE_MAX_BYTES} bytes with a 413 naming the field`, async () => {
    const big = Buffer.concat([await pngWithMetadata(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const response = await uploadHeader({ data: big, filename: 'big.png', type: 'image/png' });
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'File size must be less than 5MB',
      fields: { headerImageUrl: 'File size must be less than 5MB' },
    });
  });

  it('refuses a damaged image', async () => {
    const damaged = Buffer.concat([(await pngWithMetadata()).subarray(0, 40), Buffer.alloc(200, 7)]);
    const response = await uploadHeader({ data: damaged, filename: 'broken.png', type: 'image/png' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      headerImageUrl: 'The image is damaged or could not be read',
    });
  });

  it('refuses a small file claiming a huge picture before decoding it', async () => {
    const response = await uploadHeader({
      data: await pixelBombPng(),
      filename: 'bomb.png',
      type: 'image/png',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>().fields).toEqual({ headerImageUrl: 'The image has too many pixels' });
  });

  it('refuses a picture of 49 megapixels, which would take 200 MB to decode', async () => {
    const response = await uploadHeader({
      data: await pixelBombPng(7_000, 7_000),
      filename: 'huge.png',
      type: 'image/png',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>().fields).toEqual({ headerImageUrl: 'The image has too many pixels' });
  });

  it('takes one file per request, in the expected field only', async () => {
    const file = await png();
    const twoFiles = await uploadHeader([file, file]);
    expect(twoFiles.statusCode).toBe(413);
    expect(twoFiles.json<ErrorBody>().message).toBe('Only one file can be uploaded at a time');

    const creator = await createCreator(app);
    const wrongField = await postForm(app, '/api/auth/profile/creator', creator.token, {}, { avatar: file });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json<ErrorBody>().fields).toEqual({ avatar: 'Unexpected file' });
  });

  it('wants a file on the profile image route', async () => {
    const creator = await createCreator(app);
    const response = await postForm(app, '/api/auth/profile/creator/profile-image', creator.token, {});
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({ profileImageUrl: 'Please choose an image' });
  });

  it('never lets a name from the URL reach the storage', async () => {
    await writeFile(path.join(app.deps.config.dataDir, 'secret.txt'), 'top secret');
    for (const url of [
      '/api/creators/header-image/..%2Fsecret.txt',
      '/api/creators/profile-image/%2e%2e%2fsecret.txt',
      '/api/users/profile-image/..%2F..%2Fetc%2Fpasswd',
      '/api/events/image/..%2Fsecret.txt',
      '/api/events/image/secret.txt',
      '/api/creators/header-image/00000000-0000-0000-0000-000000000000.png%2F..%2F..%2Fsecret.txt',
      '/api/users/profile-image/00000000-0000-0000-0000-000000000000.png',
    ]) {
      const response = await api(app, { method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json<ErrorBody>()).toEqual({
        statusCode: 404,
        code: 'NOT_FOUND',
        message: 'Image not found',
      });
    }
  });
});
