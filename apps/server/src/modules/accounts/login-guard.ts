import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasCode } from '../../errors';
import { clientKey, limitFailures, tooManyAttempts, type Limit } from '../../plugins/rate-limit';

/** Wrong passwords for one email from one address: past them, that address is refused for the window. */
export const FAILURES_PER_EMAIL_AND_ADDRESS: Limit = { max: 10, windowMs: 15 * 60_000 };
/**
 * Wrong passwords for one email from anywhere before guesses are slowed: each further guess waits its
 * turn, one at a time for the whole deployment, for a delay doubling with every guess up to a minute.
 */
export const FREE_FAILURES_PER_EMAIL: Limit = { max: 10, windowMs: 15 * 60_000 };
const MAX_GUESS_DELAY_MS = 60_000;
/**
 * An address that signed in to an account is its owner's: their guesses are not slowed for two weeks
 * (kept in memory without Redis, whose timers cannot run past 24.8 days).
 */
const OWNER_ADDRESS_MS = 14 * 24 * 60 * 60_000;

const isWrongPassword = hasCode('UNAUTHORIZED');

interface LoginGuard {
  /** Runs the login `action` unless one of the limits above says to wait (a 429 saying how long). */
  attempt<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    action: () => Promise<T>,
  ): Promise<T>;
}

/**
 * Login limits that slow an attacker without locking the owner out (decision 0026): one address guessing
 * one account is stopped after a few wrong passwords; many addresses guessing it together get one guess
 * at a time, further and further apart; the addresses the owner signed in from before are not slowed.
 * Every count is taken before the password is checked, so parallel guesses cannot pass on one reading.
 */
export function loginGuard(app: FastifyInstance): LoginGuard {
  const fromOneAddress = limitFailures(
    app,
    'login-email-address',
    FAILURES_PER_EMAIL_AND_ADDRESS,
    (request) => `${String((request.body as { email?: unknown }).email)}|${clientKey(request)}`,
  );
  const fromAnywhere = app.limits('login-email', FREE_FAILURES_PER_EMAIL);
  const turns = app.limits('login-email-turn', { max: 1, windowMs: MAX_GUESS_DELAY_MS });
  const ownerAddresses = app.limits('login-owner-address', {
    max: Number.MAX_SAFE_INTEGER,
    windowMs: OWNER_ADDRESS_MS,
  });

  return {
    attempt: (request, reply, email, action) =>
      fromOneAddress.attempt(request, reply, isWrongPassword, async () => {
        const address = `${email}|${clientKey(request)}`;
        const counted = (await ownerAddresses.count(address)) === 0;
        if (counted && (await fromAnywhere.take(email)) !== null) {
          const over = (await fromAnywhere.count(email)) - FREE_FAILURES_PER_EMAIL.max;
          const delayMs = Math.min(1000 * 2 ** (over - 1), MAX_GUESS_DELAY_MS);
          const waitMs = await turns.take(email, { windowMs: delayMs });
          if (waitMs !== null) throw tooManyAttempts(reply, waitMs);
        }
        try {
          const session = await action();
          if (counted) await fromAnywhere.giveBack(email);
          await ownerAddresses.take(address);
          return session;
        } catch (error) {
          if (counted && !isWrongPassword(error)) await fromAnywhere.giveBack(email);
          throw error;
        }
      }),
  };
}
