import type { TestProject } from 'vitest/node';
import { startBuiltServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The server's DATA_DIR, where journeys read the mail it sent (support/mail.ts). */
    dataDir: string;
  }
}

/** One production server for all journeys; each journey makes its own accounts and events. */
export default async function setup(project: TestProject) {
  const server = await startBuiltServer();
  project.provide('baseURL', server.baseURL);
  project.provide('dataDir', server.dataDir);
  return server.stop;
}
