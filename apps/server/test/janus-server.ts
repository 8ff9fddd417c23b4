import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import Janode from 'janode';
import VideoRoom, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import { terminate } from './child-process';
import { freePort } from './free-port';

Janode.Logger.setLevel('none');

const JANUS = process.env.JANUS_BIN ?? '/usr/bin/janus';
/** The configuration shipped for operators (docs/live.md): the tests run exactly that. */
const CONFIG_DIR = new URL('../../../deploy/janus/', import.meta.url).pathname;
const READY_TIMEOUT_MS = 15_000;

interface JanusAccess {
  url: string;
  apiSecret: string;
  adminKey: string;
}

export interface JanusServer extends JanusAccess {
  /** Janus's own log, for a failing test to show. */
  log(): Promise<string>;
  /** Stops Janus and starts it again on the same port, as a crash and its supervisor would. */
  restart(): Promise<void>;
  /** Kills Janus at once (SIGKILL), as a crash of its machine would: nothing is closed cleanly. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Secrets a deployment's Janus servers share (JANUS_API_SECRET, JANUS_ADMIN_KEY). */
export const newJanusSecrets = () => ({
  apiSecret: randomBytes(16).toString('hex'),
  adminKey: randomBytes(16).toString('hex'),
});

/**
 * A throwaway Janus from Debian's package, with the repository's configuration folder, new secrets (or
 * those given: several servers of one deployment share them) and a free WebSocket port on 127.0.0.1.
 * Media goes over `iceInterface`: Janus ignores loopback, so tests run inside scripts/in-netns.sh,
 * whose veth end is v0.
 */
export async function startJanusServer({
  iceInterface = 'v0',
  secrets = newJanusSecrets(),
  port: wantedPort = 0,
  // The ports its WebRTC legs use, e.g. '21000-21999': a browser's connection then names its Janus.
  rtpPortRange = '',
} = {}): Promise<JanusServer> {
  if (!existsSync(JANUS)) {
    throw new Error(
      `Janus not found at ${JANUS}: the live tests need it (Debian: apt-get install janus; or set JANUS_BIN).`,
    );
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-janus-'));
  // A port given: the address a server was told of before this Janus started.
  const port = wantedPort || (await freePort());
  const { apiSecret, adminKey } = secrets;
  for (const file of await readdir(CONFIG_DIR)) {
    let text = await readFile(path.join(CONFIG_DIR, file), 'utf8');
    if (file === 'janus.jcfg') {
      text = text.replace(/event_loops = \d+/, `event_loops = ${availableParallelism()}`);
      if (rtpPortRange) text = text.replace(/rtp_port_range = ".*"/, `rtp_port_range = "${rtpPortRange}"`);
    }
    if (file === 'janus.transport.websockets.jcfg') text = text.replace(/ws_port = \d+/, `ws_port = ${port}`);
    if (file === 'janus.plugin.videoroom.jcfg')
      text = text.replace(/admin_key = ".*"/, `admin_key = "${adminKey}"`);
    await writeFile(path.join(dir, file), text);
  }
  const logFile = path.join(dir, 'janus.log');
  const launch = () =>
    spawn(
      JANUS,
      ['-F', dir, '--apisecret', apiSecret, '--ice-enforce-list', iceInterface, '--log-file', logFile, '-N'],
      { stdio: 'ignore' },
    );
  let janus = launch();
  const log = () => readFile(logFile, 'utf8').catch(() => '(no log)');
  const stop = async () => {
    await terminate(janus);
    await rm(dir, { recursive: true, force: true });
  };
  const ready = async () => {
    try {
      await waitForPort(port, janus);
    } catch (error) {
      const output = await log();
      await stop();
      throw new Error(`Janus did not start: ${(error as Error).message}\n${output}`);
    }
  };
  await ready();
  const restart = async () => {
    await terminate(janus);
    janus = launch();
    await ready();
  };
  const kill = async () => {
    await terminate(janus, 'SIGKILL');
  };
  return { url: `ws://127.0.0.1:${port}`, apiSecret, adminKey, log, restart, kill, stop };
}

async function waitForPort(port: number, janus: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (janus.exitCode !== null) throw new Error(`it exited with ${janus.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} not open after ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `work` with a VideoRoom handle of a session of its own, as our server talks to Janus. */
async function withVideoRoom<T>(
  { url, apiSecret }: JanusAccess,
  work: (handle: VideoRoomHandle) => Promise<T>,
): Promise<T> {
  const connection = await Janode.connect({ address: { url, apisecret: apiSecret }, max_retries: 1 });
  try {
    const session = await connection.create();
    const result = await work(await session.attach(VideoRoom));
    await session.destroy();
    return result;
  } finally {
    await connection.close();
  }
}

/** The descriptions of the VideoRoom rooms Janus holds now. */
export function janusRooms(access: JanusAccess): Promise<string[]> {
  return withVideoRoom(access, async (handle) => {
    const { list } = await handle.list({ admin_key: access.adminKey });
    return list.map(({ description }) => description);
  });
}

/** Creates a room as someone else (or a crashed server) would have left it. */
export function createJanusRoom(access: JanusAccess, description: string): Promise<void> {
  return withVideoRoom(access, async (handle) => {
    await handle.create({
      room: randomInt(1, 2 ** 48),
      description,
      is_private: true,
      permanent: false,
      admin_key: access.adminKey,
      max_publishers: 1,
      bitrate: 0,
      fir_freq: 0,
      audiocodec: 'opus',
      videocodec: 'vp8',
    });
  });
}
