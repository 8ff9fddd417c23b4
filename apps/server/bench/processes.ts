import { spawn, type ChildProcess } from 'node:child_process';
import { isRunning, terminate } from '../test/child-process';

const READY_TIMEOUT_MS = 60_000;

export interface Running {
  stop(): Promise<void>;
}

/**
 * Starts a server in a process of its own and waits for the line it prints once it listens: the load
 * never shares a process (or an event loop) with what it loads.
 */
export async function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  readyLine: RegExp,
): Promise<Running> {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), READY_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (readyLine.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}):\n${output}`));
    });
  });
  return { stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (isRunning(child)) await terminate(child);
}
