import { networkInterfaces } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { startJanusServer, type JanusServer } from '../../../server/test/janus-server';
import { startBuiltServer, type RunningServer } from '../../e2e/support/server';
import { childPids, commandLineOf, findProcess } from './cpu';

/** scripts/in-netns.sh's veth end: Janus gathers its ICE candidates there (it ignores loopback). */
const MEDIA_INTERFACE = 'v0';

/** Janus needs a non-loopback interface to carry media: the bench must run inside scripts/in-netns.sh. */
export function assertInMediaNamespace(): void {
  if (networkInterfaces()[MEDIA_INTERFACE]) return;
  throw new Error(
    `No ${MEDIA_INTERFACE} interface: run the live benches inside scripts/in-netns.sh (npm run bench does).`,
  );
}

export interface BenchJanus extends JanusServer {
  pid: number;
}

/** A throwaway Janus (apps/server/test/janus-server.ts) carrying media on v0, with its pid for /proc. */
export async function startBenchJanus(): Promise<BenchJanus> {
  const janus = await startJanusServer({ iceInterface: MEDIA_INTERFACE });
  // Its API secret is on its command line, and unique to this instance.
  const pid = findProcess((commandLine) => commandLine.includes(`--apisecret ${janus.apiSecret}`));
  if (pid === null) {
    await janus.stop();
    throw new Error('the Janus process was not found in /proc');
  }
  return { ...janus, pid };
}

export interface BenchServer extends RunningServer {
  pid: number;
}

/**
 * The built Stagedoor server as a child process (so its CPU is its own), in Janus mode when `janus` is
 * given, else peer to peer; `env` adds settings. The bench registers hundreds of accounts from one address.
 */
export async function startBenchServer(
  janus?: BenchJanus,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const before = new Set(childPids(process.pid));
  const server = await startBuiltServer({
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    ...(janus
      ? { JANUS_URL: janus.url, JANUS_API_SECRET: janus.apiSecret, JANUS_ADMIN_KEY: janus.adminKey }
      : {}),
    ...env,
  });
  const pid = childPids(process.pid).find(
    (child) => !before.has(child) && commandLineOf(child)?.includes('dist/server.js'),
  );
  if (pid === undefined) {
    await server.stop();
    throw new Error('the server process was not found in /proc');
  }
  return { ...server, pid };
}

/** Polls `check` every `everyMs` until it is true; false if `timeoutMs` passed first. */
export async function pollUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 500,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return false;
}

/** Warnings Janus prints at every start with deploy/janus's configuration: not the bench's doing. */
const JANUS_STARTUP_NOTES = /has been disabled|Couldn't find any address|mDNS resolution disabled/;

/** Each distinct message and how often it came, most frequent first, digits masked (ids, times). */
function tally(messages: string[]): string {
  const counts = new Map<string, number>();
  for (const message of messages) {
    const key = message.replace(/\d+/g, '#').slice(0, 160);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 5)
    .map(([message, count]) => `\n  ${count}× ${message}`)
    .join('');
}

/** A log line of the server's own (pino JSON at warn or above); not its console banner. */
const warningOf = (line: string): string[] => {
  try {
    const { level, msg } = JSON.parse(line) as { level?: number; msg?: string };
    return (level ?? 0) >= 40 ? [msg ?? line] : [];
  } catch {
    return [];
  }
};

/**
 * What the server (it logs warnings and errors only) and Janus (its [ERR] and [WARN] lines) complained
 * of during a part: a product problem shows here before it shows in the figures.
 */
export async function complaints(
  label: string,
  server: RunningServer,
  janus?: JanusServer | null,
): Promise<string> {
  const serverLines = server.logs().split('\n').flatMap(warningOf);
  const janusLines = janus
    ? (await janus.log()).split('\n').flatMap((line) => {
        const tag = /\[(ERR|WARN)\]\s*(.*)$/.exec(line);
        return tag && !JANUS_STARTUP_NOTES.test(line) ? [`[${tag[1]}] ${tag[2]}`] : [];
      })
    : [];
  return (
    `${label}: the server logged ${serverLines.length} warnings/errors${tally(serverLines)}` +
    (janus ? `\n${label}: Janus logged ${janusLines.length} [ERR]/[WARN] lines${tally(janusLines)}` : '')
  );
}
