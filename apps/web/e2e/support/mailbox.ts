import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * The mail the journeys' server sent: without SMTP_URL it writes each message as an .eml file in
 * DATA_DIR/outbox, named after its time and address (modules/mail/transport.ts).
 */
export async function subjectsTo(address: string): Promise<string[]> {
  const folder = join(inject('dataDir'), 'outbox');
  const names = await readdir(folder).catch(() => []);
  const mine = names.filter((name) => name.endsWith(`-${address.replace(/[^\w.@-]/g, '_')}.eml`));
  const subjects = await Promise.all(
    mine.map(async (name) => /^Subject: (.*)$/m.exec(await readFile(join(folder, name), 'utf8'))?.[1] ?? ''),
  );
  return subjects.sort();
}
