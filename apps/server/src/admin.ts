import { buildApp } from './app';
import { runAdminCommand } from './admin-commands';
import { loadConfig } from './config';

/** `npm run admin -- <command>`: one operator command against the configured deployment. */
async function main(): Promise<void> {
  const app = await buildApp(loadConfig());
  try {
    console.info(await runAdminCommand(app, process.argv.slice(2)));
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
