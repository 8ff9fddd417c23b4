import { buildApp } from './app';
import { isDatabaseCommand, runDatabaseCommand } from './admin-backup';
import { MoneyReportFindings, runAdminCommand } from './admin-commands';
import { loadConfig } from './config';

/** `npm run admin -- <command>`: one operator command against the configured deployment. */
async function main(): Promise<void> {
  const config = loadConfig();
  const args = process.argv.slice(2);
  // Backups work on the database files: no server, not even this command's own, may have them open.
  if (isDatabaseCommand(args)) {
    console.info(await runDatabaseCommand(config, args));
    return;
  }
  const app = await buildApp(config);
  try {
    console.info(await runAdminCommand(app, args));
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  // The money report's findings are its output, for the operator or a cron job's mail, not a crash.
  if (error instanceof MoneyReportFindings) console.info(error.message);
  else console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
