import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { terminate } from './child-process';
import { freePort } from './free-port';

const TURNSERVER = process.env.TURNSERVER_BIN ?? '/usr/bin/turnserver';
/** The configuration shipped for operators (docs/live.md), with the test's address, port and secret. */
const CONFIG = new URL('../../../deploy/coturn/turnserver.conf', import.meta.url).pathname;
const READY_TIMEOUT_MS = 10_000;

interface CoturnServer {
  /** What TURN_URLS takes. */
  url: string;
  /** What TURN_SECRET takes. */
  secret: string;
  /** coturn's log: each allocation it made shows there. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A throwaway coturn on `address` (UDP and TCP), with a new shared secret, no TLS, and relaying allowed
 * to that one address (where Janus and the browsers are in the test namespace).
 */
export async function startCoturnServer(address: string): Promise<CoturnServer> {
  if (!existsSync(TURNSERVER)) {
    throw new Error(
      `coturn not found at ${TURNSERVER}: the TURN test needs it (Debian: apt-get install coturn).`,
    );
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-coturn-'));
  const port = await freePort();
  const secret = randomBytes(16).toString('hex');
  const logFile = path.join(dir, 'turn.log');
  const overrides = [
    `listening-ip=${address}`,
    `relay-ip=${address}`,
    `listening-port=${port}`,
    `static-auth-secret=${secret}`,
    `allowed-peer-ip=${address}`,
    'no-tls',
    'no-dtls',
    `log-file=${logFile}`,
    `pidfile=${path.join(dir, 'turn.pid')}`,
  ];
  const shipped = (await readFile(CONFIG, 'utf8'))
    .split('\n')
    .filter((line) => !/^(cert|pkey|log-file|static-auth-secret|tls-listening-port)=/.test(line));
  const config = path.join(dir, 'turnserver.conf');
  await writeFile(config, [...shipped, ...overrides].join('\n'));
  const turn = spawn(TURNSERVER, ['-c', config], { stdio: 'ignore' });
  const log = () => readFile(logFile, 'utf8').catch(() => '(no log)');
  const stop = async () => {
    await terminate(turn);
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!/listener opened on|Total General servers/.test(await log())) {
    if (turn.exitCode !== null || Date.now() > deadline) {
      const output = await log();
      await stop();
      throw new Error(`coturn did not start (exit ${turn.exitCode}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `turn:${address}:${port}`, secret, log, stop };
}
