import type { ErrorBody } from '@stagedoor/shared/errors';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator, encodeForm, eventFormFields } from '../../test/factories';
import { createTestApp } from '../../test/test-app';
import { MALFORMED_FORM_MESSAGE, TOO_MANY_FIELDS_MESSAGE } from './multipart';

const app = await createTestApp();
afterAll(() => app.close());
const creator = await createCreator(app);

const eventForm = () => encodeForm(eventFormFields());

const postEvent = (contentType: string, payload: Buffer | string) =>
  api(app, {
    method: 'POST',
    url: '/api/events',
    headers: { ...authHeader(creator.token), 'content-type': contentType },
    payload,
  });

describe('a multipart body that is not one', () => {
  it('without a boundary is a 400 in the error format', async () => {
    const response = await postEvent('multipart/form-data', (await eventForm()).body);
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: MALFORMED_FORM_MESSAGE,
    });
  });

  it('cut off in the middle is a 400 in the error format, and creates nothing', async () => {
    const { body, contentType } = await eventForm();
    const response = await postEvent(contentType, body.subarray(0, body.length - 40));
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: MALFORMED_FORM_MESSAGE,
    });
    const mine = await api(app, {
      method: 'GET',
      url: `/api/events/creator/${creator.user.id}`,
      headers: authHeader(creator.token),
    });
    expect(mine.json()).toEqual([]);
  });

  it('with more fields than any form of the product has is a 413 saying so', async () => {
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, field) => [`field${field}`, 'x']));
    const { body, contentType } = await encodeForm(fields);
    const response = await postEvent(contentType, body);
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>().message).toBe(TOO_MANY_FIELDS_MESSAGE);
  });

  it('with garbage for a boundary is a 400', async () => {
    const response = await postEvent('multipart/form-data; boundary=zzz', 'not a multipart body at all');
    expect(response.statusCode).toBe(400);
  });
});
