import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isRunning } from '../test/child-process';

const READY_TIMEOUT_MS = 60_000;
/**
 * How long a server may take to exit on SIGTERM: Stagedoor finishes its requests (SHUTDOWN_TIMEOUT_MS,
 * 10 s by default) and, run with --cpu-prof, writes its profile on the way out. Past it, SIGKILL.
 */
const STOP_TIMEOUT_MS = 30_000;

export interface Running {
  /** CPU time (user and system) the process has used so far, in microseconds. */
  cpuMicros(): number;
  /** The memory the process holds now (its resident set), in bytes. */
  rssBytes(): number;
  /** SIGTERM, and resolves once the process has exited (a Node process writes its --cpu-prof then). */
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an out-of-memory killer would, and resolves once the process is gone. */
  kill(): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** utime + stime of a Linux process (fields 14 and 15 of /proc/<pid>/stat), in microseconds. */
function cpuMicrosOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After "pid (name) ", the state is field 3: utime and stime are fields 14 and 15.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** VmRSS of a Linux process (/proc/<pid>/status, in kB), in bytes. */
function rssBytesOf(pid: number): number {
  const kB = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kB ?? NaN) * 1024;
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
  const { pid } = child;
  if (pid === undefined) throw new Error(`${name} has no pid`);
  let stopping: Promise<void> | undefined;
  return {
    cpuMicros: () => cpuMicrosOf(pid),
    rssBytes: () => rssBytesOf(pid),
    stop: () => (stopping ??= stopProcess(name, child)),
    kill: () =>
      (stopping ??= new Promise<void>((resolve) => {
        if (!isRunning(child)) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      })),
  };
}

/** Asks the process to exit (SIGTERM, which Stagedoor's shutdown answers) and waits until it has. */
async function stopProcess(name: string, child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const tooLong = new Promise<'too long'>((resolve) => {
    timer = setTimeout(() => resolve('too long'), STOP_TIMEOUT_MS);
  });
  try {
    if ((await Promise.race([exited, tooLong])) === 'too long') {
      console.warn(`${name} did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM: killed`);
      child.kill('SIGKILL');
      await exited;
    }
  } finally {
    clearTimeout(timer);
  }
  if (child.exitCode !== 0) console.warn(`${name} exited with ${child.exitCode ?? child.signalCode}`);
}
