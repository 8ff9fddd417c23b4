import { ZAuthResponse, ZSessionUser, ZVerifyTokenResponse } from '@stagedoor/shared/accounts';
import { ZErrorBody } from '@stagedoor/shared/errors';
import { ZEvent } from '@stagedoor/shared/events';
import { describe, expect, it } from 'vitest';
import { aCreator, anEvent } from '../test/api-stub';
import {
  AuthAnswer,
  ErrorBodyAnswer,
  EventListAnswer,
  SessionUserAnswer,
  VerifyTokenAnswer,
} from './answers';
import { ShapeError } from './shape';

type Light = { safeParse: (data: unknown) => { success: boolean; data?: unknown } };
type Zod = { safeParse: (data: unknown) => { success: boolean; data?: unknown } };

/** The light check accepts what the zod schema accepts and returns the same value; it refuses the rest. */
function expectTwins(light: Light, zod: Zod, inputs: unknown[]) {
  for (const input of inputs) {
    const expected = zod.safeParse(input);
    const actual = light.safeParse(input);
    expect({ input, success: actual.success }).toEqual({ input, success: expected.success });
    if (expected.success) expect(actual.data).toStrictEqual(expected.data);
  }
}

const user = aCreator({ biography: 'Sings standards.' });
const { creator: _creator, ...eventWithoutCreator } = anEvent();

describe('light answer checks (lib/answers.ts)', () => {
  it('check the event list as ZEvent does, dropping unknown fields', () => {
    expectTwins(EventListAnswer, ZEvent.array(), [
      [],
      [anEvent(), anEvent({ id: 2, image: null, cancelledAt: '2030-01-01T00:00:00.000Z' })],
      [{ ...anEvent(), extra: 'dropped', creator: { ...anEvent().creator, id: 7 } }],
      [{ ...anEvent(), price: '12.00' }],
      [{ ...anEvent(), ticketsLeft: 1.5 }],
      [{ ...anEvent(), image: undefined }],
      [eventWithoutCreator],
      [null],
      { events: [] },
      'Internal Server Error',
    ]);
  });

  it('check the session user, the token check and the login answer as the shared schemas do', () => {
    const users: unknown[] = [
      user,
      { ...user, password: 'never kept' },
      { ...user, role: 'admin' },
      { ...user, id: '1' },
      { ...user, biography: null },
      { ...user, timeZone: undefined },
      {},
    ];
    expectTwins(SessionUserAnswer, ZSessionUser, users);
    expectTwins(
      VerifyTokenAnswer,
      ZVerifyTokenResponse,
      users.flatMap((candidate) => [
        { valid: true, user: candidate },
        { valid: false, user: null },
        { valid: 'yes', user: null },
      ]),
    );
    expectTwins(
      AuthAnswer,
      ZAuthResponse,
      users.map((candidate: unknown) => ({ access_token: 'token', user: candidate })),
    );
    expectTwins(AuthAnswer, ZAuthResponse, [{ user }, { access_token: 1, user }]);
  });

  it('check an error body, its field reasons optional, as ZErrorBody does', () => {
    const body = { statusCode: 400, code: 'VALIDATION_FAILED', message: 'Invalid' };
    expectTwins(ErrorBodyAnswer, ZErrorBody, [
      body,
      { ...body, fields: { email: 'Email is required' } },
      { ...body, fields: { email: 3 } },
      { ...body, statusCode: 400.5 },
      { ...body, message: undefined },
      '<html>Bad gateway</html>',
      undefined,
    ]);
  });

  it('throw a ShapeError that says where the answer went wrong', () => {
    const admin = { ...user, role: 'admin' };
    expect(() => EventListAnswer.parse([{ ...anEvent(), creator: null }])).toThrow(
      new ShapeError('[0].creator', 'an object'),
    );
    expect(() => AuthAnswer.parse({ access_token: 't', user: admin })).toThrow(ShapeError);
    expect(() => AuthAnswer.parse({ access_token: 't', user: admin })).toThrow(
      'Unexpected answer at user.role: expected creator or user',
    );
  });
});
