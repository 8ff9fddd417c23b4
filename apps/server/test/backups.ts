import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import type { Order } from '@stagedoor/shared/orders';
import { expect, inject } from 'vitest';
import type { App } from '../src/app';
import {
  api,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  getOk,
  type TestAccount,
} from './factories';

// What the backup tests of both databases share: a sale made before the backup, and what a server
// started on the restored data must answer about it.

export const newDir = (label: string) => mkdtemp(path.join(inject('tempRoot'), `${label}-`));

/** A fan's order of an event, as the API shows it to the fan. */
export async function sold(app: App) {
  const creator = await createCreator(app);
  const event = await createEvent(app, creator, { name: 'Backed-up night', maxTickets: 10 });
  const fan = await createUser(app);
  const order = await buyTicketsOk(app, fan, event.id, 3);
  return { event, fan, order };
}

/** What a server started on the restored data answers the fan who bought before the backup. */
export async function expectSale(app: App, { event, fan, order }: Awaited<ReturnType<typeof sold>>) {
  const login = await api(app, {
    method: 'POST',
    url: '/api/auth/login/user',
    payload: { email: fan.email, password: fan.password },
  });
  expect(login.statusCode, login.body).toBe(200);
  const restoredFan: TestAccount = { ...fan, token: login.json<{ access_token: string }>().access_token };
  expect(await getOk<Order[]>(app, '/api/orders', restoredFan.token)).toEqual([order]);
  expect(await getOk(app, `/api/events/${event.id}`)).toMatchObject({
    name: 'Backed-up night',
    ticketsLeft: 7,
  });
}
