import type { ChildProcess } from 'node:child_process';

export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Ends a throwaway server the tests started (SIGTERM, unless told otherwise), and waits until it is gone. */
export async function terminate(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!isRunning(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
