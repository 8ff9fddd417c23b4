import type { Database } from '../../db/database';
import type { AccountRow } from '../accounts/accounts.tables';
import { changeSettings, findCreatorWithEmail } from '../accounts/accounts.service';

const noSuchCreatorMessage = (email: string) => `No creator account has the email ${email}`;

/** The Founders page's promise: a founding partner pays no platform fee on their first event. */
export async function markFoundingPartner(db: Database, email: string): Promise<AccountRow> {
  const creator = await findCreatorWithEmail({ db }, email);
  const marked = creator && (await changeSettings(db, creator.id, { foundingPartner: true }));
  if (!marked) throw new Error(noSuchCreatorMessage(email));
  return marked;
}
