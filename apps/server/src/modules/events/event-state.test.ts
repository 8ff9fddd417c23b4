import { randomUUID } from 'node:crypto';
import { EVENT_DURATION_MS, eventState } from '@stagedoor/shared/event-state';
import { and, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/test-app';
import { accounts, events } from '../../db/schema';
import { sellsAt, tookPlaceBy, upcomingAt } from './event-state';

const app = await createTestApp();
afterAll(() => app.close());

const MINUTE_MS = 60_000;

describe('event-state in SQL', () => {
  it('picks exactly the events eventState says sell, and those it says took place', async () => {
    const now = new Date();
    const [creator] = await app.deps.db
      .insert(accounts)
      .values({
        email: `creator-${randomUUID()}@example.test`,
        passwordHash: 'not-a-hash',
        role: 'creator',
        firstName: 'State',
        lastName: 'Creator',
        nickname: `state-${randomUUID()}`,
      })
      .returning();
    if (!creator) throw new Error('no creator');
    // Every combination, with dates on both sides of the start and the end, a minute and a cent away.
    const offsets = [-EVENT_DURATION_MS - MINUTE_MS, -EVENT_DURATION_MS, -MINUTE_MS, 0, MINUTE_MS];
    const rows = await app.deps.db
      .insert(events)
      .values(
        offsets.flatMap((offset) =>
          [true, false].flatMap((isActive) =>
            [null, now].flatMap((cancelledAt) =>
              // Replays kept or not, one ready or not.
              [true, false].flatMap((replayEnabled) =>
                [true, false].map((hasReplay) => ({
                  creatorId: creator.id,
                  name: 'State',
                  description: 'State',
                  priceCents: 100,
                  maxTickets: 1,
                  date: new Date(now.getTime() + offset),
                  isActive,
                  cancelledAt,
                  replayEnabled,
                  hasReplay,
                })),
              ),
            ),
          ),
        ),
      )
      .returning();
    const ids = rows.map((row) => row.id);
    const picked = async (condition: ReturnType<typeof sellsAt>) =>
      (
        await app.deps.db
          .select({ id: events.id })
          .from(events)
          .where(and(inArray(events.id, ids), condition))
      )
        .map((row) => row.id)
        .sort((a, b) => a - b);

    const selling = rows.filter((row) => eventState(row, now).sells).map((row) => row.id);
    const upcoming = rows
      .filter((row) => eventState(row, now).notSelling === null && eventState(row, now).phase === 'upcoming')
      .map((row) => row.id);
    // Some sell their replay: ended, with one ready.
    expect(rows.filter((row) => eventState(row, now).sellsReplay).length).toBeGreaterThan(0);
    const tookPlace = rows.filter((row) => eventState(row, now).tookPlace).map((row) => row.id);
    expect(selling.length).toBeGreaterThan(0);
    expect(tookPlace.length).toBeGreaterThan(0);
    expect(await picked(sellsAt(now))).toEqual(selling);
    expect(await picked(upcomingAt(now))).toEqual(upcoming);
    expect(await picked(tookPlaceBy(now))).toEqual(tookPlace);
  });
});
