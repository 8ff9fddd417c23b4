import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
