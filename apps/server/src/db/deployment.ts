import type { Database } from './database';
import { deployment } from './deployment.tables';

/** This deployment's name (schema.ts `deployment`), made once by its first migration. */
export async function deploymentName(db: Database): Promise<string> {
  const [row] = await db.select({ id: deployment.id }).from(deployment).limit(1);
  if (!row) throw new Error('the deployment table is empty: its migration did not run');
  return row.id;
}
