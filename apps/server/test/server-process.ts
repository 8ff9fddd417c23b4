import { spawn } from 'node:child_process';
import { isRunning, terminate } from './child-process';
import { freePort } from './free-port';

const SERVER_ROOT = new URL('..', import.meta.url).pathname;
const READY_TIMEOUT_MS = 60_000;

interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  pid: number;
  /** What the server printed so far (its log), for a failing test to show. */
  output(): string;
  isRunning(): boolean;
  /** Resolves with how the process ended. */
  exited: Promise<ExitStatus>;
  /** Sends a signal without waiting (a test of what the server does on it). */
  signal(name: NodeJS.Signals): void;
  /** SIGTERM, and waits until it is gone (at once if it already is). */
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an out-of-memory kill would, and waits until it is gone. */
  kill(): Promise<void>;
}

/**
 * The server as `npm start` runs it (src/server.ts, under tsx rather than bundled), in a process of its
 * own on a free port of 127.0.0.1, with `env` over the test defaults: for what only a whole process
 * shows (a kill, a signal, a restart on the same data). Resolves once GET /api/health answers 200.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SEED_DEMO: '0',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => terminate(child);
  const kill = async () => {
    if (!isRunning(child)) return;
    child.kill('SIGKILL');
    await exited;
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!isRunning(child)) throw new Error(`the server exited before it was up:\n${output}`);
    const healthy = await fetch(`${origin}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`the server was not up within ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    pid: child.pid ?? 0,
    output: () => output,
    isRunning: () => isRunning(child),
    exited,
    signal: (name) => child.kill(name),
    stop,
    kill,
  };
}
