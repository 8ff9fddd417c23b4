import { fromCents, toCents } from '@stagedoor/shared/events';
import { eventState } from '@stagedoor/shared/event-state';
import type { CreatePromoCodeRequest, PromoCode } from '@stagedoor/shared/promo-codes';
import { asc, count, eq } from 'drizzle-orm';
import { violatedUniqueIndex } from '../../db/database';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { assertOwner } from '../../policy';
import type { AccountRow } from '../accounts/accounts.tables';
import { promoCodes, ticketTypes, type PromoCodeRow } from './events.tables';
import { findEventById } from './events.repo';
import { EVENT_CANCELLED_MESSAGE, EVENT_NOT_FOUND_MESSAGE } from './events.service';

/** The codes one event may have: more is a script, not a promotion. */
const PROMO_CODES_PER_EVENT = 100;

const NOT_THIS_EVENTS_TYPE_MESSAGE = 'Each ticket type must be one of this event';
const TOO_MANY_CODES_MESSAGE = `An event has at most ${PROMO_CODES_PER_EVENT} promo codes`;
const codeTakenMessage = (code: string) => `This event already has the promo code ${code}`;

const PROMO_CODES_EVENT_CODE_INDEX = 'promo_codes_event_id_code_unique';

/** The event, for its creator only (404 unknown, 403 another's). */
async function ownEvent(deps: Pick<Deps, 'db'>, account: AccountRow, eventId: number) {
  const event = await findEventById(deps.db, eventId);
  if (!event) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  assertOwner(account, event);
  return event;
}

function toPromoCode(row: PromoCodeRow): PromoCode {
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOffCents === null ? null : fromCents(row.amountOffCents),
    maxUses: row.maxUses,
    uses: row.uses,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    ticketTypeIds: row.ticketTypeIds,
  };
}

/**
 * POST /events/{id}/promo-codes: a code for the creator's event, on types of that event only; a code
 * the event already has (in any case) is a 409 naming `code`.
 */
export async function createPromoCode(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  eventId: number,
  input: CreatePromoCodeRequest,
): Promise<PromoCode> {
  const event = await ownEvent(deps, account, eventId);
  if (eventState(event, new Date()).cancelled) throw new AppError('CONFLICT', EVENT_CANCELLED_MESSAGE);
  if (input.ticketTypeIds) {
    const own = new Set(
      (
        await deps.db.select({ id: ticketTypes.id }).from(ticketTypes).where(eq(ticketTypes.eventId, eventId))
      ).map(({ id }) => id),
    );
    if (!input.ticketTypeIds.every((id) => own.has(id))) {
      throw new AppError('VALIDATION_FAILED', NOT_THIS_EVENTS_TYPE_MESSAGE, {
        ticketTypeIds: NOT_THIS_EVENTS_TYPE_MESSAGE,
      });
    }
  }
  const [codes] = await deps.db
    .select({ total: count() })
    .from(promoCodes)
    .where(eq(promoCodes.eventId, eventId));
  if ((codes?.total ?? 0) >= PROMO_CODES_PER_EVENT) throw new AppError('CONFLICT', TOO_MANY_CODES_MESSAGE);
  try {
    const [row] = await deps.db
      .insert(promoCodes)
      .values({
        eventId,
        code: input.code,
        percentOff: input.percentOff ?? null,
        amountOffCents: input.amountOff === undefined ? null : toCents(input.amountOff),
        maxUses: input.maxUses ?? null,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        ticketTypeIds: input.ticketTypeIds ? [...new Set(input.ticketTypeIds)] : null,
      })
      .returning();
    if (!row) throw new Error('insert into promo_codes returned no row');
    return toPromoCode(row);
  } catch (error) {
    if (violatedUniqueIndex(error) !== PROMO_CODES_EVENT_CODE_INDEX) throw error;
    const message = codeTakenMessage(input.code);
    throw new AppError('CONFLICT', message, { code: message });
  }
}

/** GET /events/{id}/promo-codes: the event's codes, oldest first, with their uses, for its creator. */
export async function listPromoCodes(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  eventId: number,
): Promise<PromoCode[]> {
  await ownEvent(deps, account, eventId);
  const rows = await deps.db
    .select()
    .from(promoCodes)
    .where(eq(promoCodes.eventId, eventId))
    .orderBy(asc(promoCodes.id));
  return rows.map(toPromoCode);
}
