import { networkInterfaces } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { newJanusSecrets, startJanusServer, type JanusServer } from '../../../server/test/janus-server';
import { startBuiltServer, type RunningServer } from '../../e2e/support/server';
import { childPids, commandLineOf } from './cpu';

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

/** The child this process started since `before` was taken whose command line `matches`; exactly one. */
function newChild(before: Set<number>, matches: (commandLine: string) => boolean, what: string): number {
  const found = childPids(process.pid).filter(
    (child) => !before.has(child) && matches(commandLineOf(child) ?? ''),
  );
  if (found.length !== 1) throw new Error(`${found.length} new ${what} processes in /proc, not one`);
  return found[0] as number;
}

/**
 * A throwaway Janus (apps/server/test/janus-server.ts) carrying media on v0, with its pid for /proc.
 * Janus servers of one deployment share `secrets`; start them one after another, since each is told
 * apart from the others as the one Janus child that appeared during its own start.
 */
export async function startBenchJanus(secrets = newJanusSecrets()): Promise<BenchJanus> {
  const before = new Set(childPids(process.pid));
  const janus = await startJanusServer({ iceInterface: MEDIA_INTERFACE, secrets });
  try {
    return { ...janus, pid: newChild(before, (line) => line.includes('--apisecret'), 'Janus') };
  } catch (error) {
    await janus.stop();
    throw error;
  }
}

/** `count` Janus servers of one deployment: JANUS_URLS needs them to share their secrets. */
export async function startBenchJanuses(count: number): Promise<BenchJanus[]> {
  const secrets = newJanusSecrets();
  const started: BenchJanus[] = [];
  try {
    // One after another: see startBenchJanus.
    for (let index = 0; index < count; index += 1) started.push(await startBenchJanus(secrets));
    return started;
  } catch (error) {
    await Promise.all(started.map((janus) => janus.stop()));
    throw error;
  }
}

export interface BenchServer extends RunningServer {
  pid: number;
}

/**
 * The built Stagedoor server as a child process (so its CPU is its own): peer to peer with no Janus,
 * through one (JANUS_URL) or several (JANUS_URLS, which share their secrets); `env` adds settings. The
 * bench registers hundreds of accounts from one address.
 */
export async function startBenchServer(
  janus: readonly BenchJanus[] = [],
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const [first] = janus;
  const before = new Set(childPids(process.pid));
  const server = await startBuiltServer({
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    ...(first
      ? {
          ...(janus.length === 1
            ? { JANUS_URL: first.url }
            : { JANUS_URLS: janus.map(({ url }) => url).join(',') }),
          JANUS_API_SECRET: first.apiSecret,
          JANUS_ADMIN_KEY: first.adminKey,
        }
      : {}),
    ...env,
  });
  try {
    return { ...server, pid: newChild(before, (line) => line.includes('dist/server.js'), 'server') };
  } catch (error) {
    await server.stop();
    throw error;
  }
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

/** A Janus's [ERR] and [WARN] lines, but for those of every start. */
async function janusComplaints(janus: JanusServer): Promise<string[]> {
  return (await janus.log()).split('\n').flatMap((line) => {
    const tag = /\[(ERR|WARN)\]\s*(.*)$/.exec(line);
    return tag && !JANUS_STARTUP_NOTES.test(line) ? [`[${tag[1]}] ${tag[2]}`] : [];
  });
}

/**
 * What the server (it logs warnings and errors only) and each Janus complained of during a part: a
 * product problem shows here before it shows in the figures.
 */
export async function complaints(
  label: string,
  server: RunningServer,
  janus: readonly JanusServer[] = [],
): Promise<string> {
  const serverLines = server.logs().split('\n').flatMap(warningOf);
  const lines = [`${label}: the server logged ${serverLines.length} warnings/errors${tally(serverLines)}`];
  for (const [index, each] of janus.entries()) {
    const janusLines = await janusComplaints(each);
    const name = janus.length === 1 ? 'Janus' : `Janus #${index + 1}`;
    lines.push(`${label}: ${name} logged ${janusLines.length} [ERR]/[WARN] lines${tally(janusLines)}`);
  }
  return lines.join('\n');
}
