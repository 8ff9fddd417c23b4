import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/** One directory for every data dir the run's servers make, removed when the run ends. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(path.join(tmpdir(), 'stagedoor-tests-'));
  project.provide('tempRoot', root);
  return () => rm(root, { recursive: true, force: true });
}
