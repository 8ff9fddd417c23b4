import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isRunning, terminate } from './child-process';

const run = promisify(execFile);
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const READY_TIMEOUT_MS = 10_000;

interface NginxServer {
  /** The folder of its configuration, logs and temporary files. */
  dir: string;
  /** nginx's error log, for a failing test to show. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A throwaway nginx from Debian's package, in a folder of its own (the stock service stays off): one
 * worker, logs and temporary files in that folder, and `site` (server and upstream blocks, as an
 * operator puts in conf.d) in its http block. Resolves once every port in `ports` accepts connections.
 */
export async function startNginx(site: string, ports: number[]): Promise<NginxServer> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx not found at ${NGINX}: the deployment test needs it (Debian: apt-get install nginx).`,
    );
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-nginx-'));
  // As root nginx's worker runs as nobody, and must reach its temporary files in here.
  await chmod(dir, 0o755);
  const errorLog = path.join(dir, 'error.log');
  await writeFile(path.join(dir, 'site.conf'), site);
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${errorLog} info;`,
      'events { worker_connections 512; }',
      'http {',
      `  access_log ${path.join(dir, 'access.log')};`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `  ${kind}_temp_path ${path.join(dir, `${kind}-temp`)};`,
      ),
      `  include ${path.join(dir, 'site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', errorLog];
  const log = () => readFile(errorLog, 'utf8').catch(() => '(no log)');
  await run(NGINX, [...args, '-t']).catch(async (error: { stderr?: string }) => {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`nginx refused the configuration:\n${error.stderr ?? String(error)}`);
  });
  const nginx = spawn(NGINX, args, { stdio: 'ignore' });
  const stop = async () => {
    await terminate(nginx);
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (const port of ports) {
    while (!(await accepts(port))) {
      if (!isRunning(nginx) || Date.now() > deadline) {
        const output = await log();
        await stop();
        throw new Error(`nginx did not start:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { dir, log, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
