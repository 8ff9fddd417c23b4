import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { accounts, type AccountRow } from '../../db/schema';

const noSuchCreatorMessage = (email: string) => `No creator account has the email ${email}`;

/** The Founders page's promise: a founding partner pays no platform fee on their first event. */
export async function markFoundingPartner(db: Database, email: string): Promise<AccountRow> {
  const [creator] = await db
    .update(accounts)
    .set({ foundingPartner: true })
    .where(and(sql`lower(${accounts.email}) = lower(${email})`, eq(accounts.role, 'creator')))
    .returning();
  if (!creator) throw new Error(noSuchCreatorMessage(email));
  return creator;
}
