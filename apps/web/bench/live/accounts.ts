import { randomUUID } from 'node:crypto';

export const BENCH_PASSWORD = 'bench-password-1';
const HOUR_MS = 60 * 60 * 1000;
/** Requests in flight at once: a registration costs the server an argon2 hash, so more only queue. */
const REQUEST_CONCURRENCY = 4;

type Role = 'creator' | 'user';

/** A registered account and its session, as the web app keeps it in localStorage. */
export interface BenchAccount {
  email: string;
  token: string;
  user: { id: number };
}

/** A creator's active event and its ticket holders (one ticket each). */
export interface BenchShow {
  eventId: number;
  creator: BenchAccount;
  fans: BenchAccount[];
}

/** POSTs JSON to the server's API and answers the parsed response; any non-2xx throws. */
async function call<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function register(base: string, role: Role): Promise<BenchAccount> {
  const email = `${role}-${randomUUID().slice(0, 8)}@bench.test`;
  const { access_token, user } = await call<{ access_token: string; user: { id: number } }>(
    base,
    `/auth/register/${role}`,
    { firstName: 'Bench', lastName: role, email, password: BENCH_PASSWORD },
  );
  return { email, token: access_token, user };
}

/** An active event of the creator's, an hour from now, with room for `tickets` tickets. */
export async function createEvent(base: string, creator: BenchAccount, tickets: number): Promise<number> {
  const { id } = await call<{ id: number }>(
    base,
    '/events',
    {
      name: `Bench show ${randomUUID().slice(0, 6)}`,
      description: 'Measured.',
      price: 1,
      maxTickets: Math.max(tickets, 1),
      date: new Date(Date.now() + HOUR_MS).toISOString(),
    },
    creator.token,
  );
  return id;
}

/** Runs `task` for 0..count-1 with at most `concurrency` in flight; answers the results in order. */
async function pooled<T>(count: number, concurrency: number, task: (index: number) => Promise<T>) {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) results[index] = await task(index);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** One ticket of the event for each of `fans`. */
export async function buyTickets(base: string, fans: BenchAccount[], eventId: number): Promise<void> {
  await pooled(fans.length, REQUEST_CONCURRENCY, async (index) => {
    const fan = fans[index];
    if (fan) await call(base, '/orders', { eventId, quantity: 1 }, fan.token);
  });
}

/** The show's creator and fans again, with a new event of the creator's and a ticket of it each. */
export async function anotherShow(base: string, show: BenchShow): Promise<BenchShow> {
  const eventId = await createEvent(base, show.creator, show.fans.length);
  await buyTickets(base, show.fans, eventId);
  return { ...show, eventId };
}

/**
 * A creator with an active event and `fans` new ticket holders. The server must allow that many
 * registrations a minute from one address (AUTH_RATE_LIMIT_PER_MINUTE).
 */
export async function createShow(base: string, fans: number): Promise<BenchShow> {
  const creator = await register(base, 'creator');
  const eventId = await createEvent(base, creator, fans);
  const holders = await pooled(fans, REQUEST_CONCURRENCY, () => register(base, 'user'));
  await buyTickets(base, holders, eventId);
  return { eventId, creator, fans: holders };
}
