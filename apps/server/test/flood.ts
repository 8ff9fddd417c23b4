import { Worker } from 'node:worker_threads';
import { SOCKET_PATH } from '@stagedoor/shared/live';

/** One request the flood repeats: its body is sent as it is. */
interface FloodRequest {
  method: string;
  /** Each \`{n}\` is replaced by the request's number, so no two are alike (no cache answers them). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface FloodResult {
  /** Requests the flood completed, by status code ('error' for a connection that failed). */
  statuses: Record<string, number>;
  /** How long each GET /api/health took while the flood ran, in ms, in the order sent. */
  healthMs: number[];
}

// The attacker runs on a thread of its own, so the test's event loop measures health as a client
// would, and the server under test is the only one whose loop the flood loads.
const ATTACKER = `
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
const { baseUrl, request, clients } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const statuses = {};
let stopping = false;
let sent = 0;
parentPort.on('message', () => { stopping = true; });
function once() {
  return new Promise((resolve) => {
    let counted = false;
    const count = (status) => {
      if (counted) return;
      counted = true;
      statuses[status] = (statuses[status] || 0) + 1;
      resolve();
    };
    sent += 1;
    const req = http.request(baseUrl + request.path.replaceAll('{n}', String(sent)), { method: request.method, headers: request.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => count(res.statusCode));
    });
    // A request unanswered within 10 s counts as timed out (as a browser's fetch would give up).
    req.setTimeout(10000, () => { count('timeout'); req.destroy(); });
    req.on('error', () => { count('error'); });
    req.end(request.body);
  });
}
async function client() { while (!stopping) await once(); }
Promise.all(Array.from({ length: clients }, client)).then(() => {
  agent.destroy();
  parentPort.postMessage(statuses);
});
`;

/**
 * Runs `clients` attackers repeating `request` against the server at `baseUrl` for `durationMs`, and
 * meanwhile asks GET /api/health every `healthEveryMs`, timing each answer.
 */
export async function healthDuringFlood(
  baseUrl: string,
  request: FloodRequest,
  { clients = 4, durationMs = 5_000, healthEveryMs = 50 } = {},
): Promise<FloodResult> {
  const worker = new Worker(ATTACKER, { eval: true, workerData: { baseUrl, request, clients } });
  const statuses = new Promise<Record<string, number>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Asked on a steady beat, not after the previous answer: a stalled server shows as many slow answers.
  const asked: Promise<number>[] = [];
  const stopAt = performance.now() + durationMs;
  while (performance.now() < stopAt) {
    const startedAt = performance.now();
    asked.push(
      fetch(`${baseUrl}/api/health`)
        .then((response) => response.arrayBuffer())
        .then(() => performance.now() - startedAt),
    );
    await new Promise((resolve) => setTimeout(resolve, healthEveryMs));
  }
  const healthMs = await Promise.all(asked);
  worker.postMessage('stop');
  const result = { statuses: await statuses, healthMs };
  await worker.terminate();
  return result;
}

/** Tells a load's worker to stop, and answers the figures it posts back once it has. */
export async function stopWorker<Figures>(worker: Worker): Promise<Figures> {
  const figures = new Promise<Figures>((resolve) => worker.once('message', resolve));
  worker.postMessage('stop');
  const result = await figures;
  await worker.terminate();
  return result;
}

/** The value below which `share` of `values` lie (0.5: the median). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
}

export interface SocketFloodFigures {
  /** Events the flooding sockets sent, and the connections the server cut or refused. */
  sent: number;
  cut: number;
  refusedHandshakes: number;
}

// One account's sockets sending bursts of chat messages without waiting for answers, reconnecting
// when cut, on a thread of its own.
const FLOODER = `
const { workerData, parentPort } = require('node:worker_threads');
const { io } = require('socket.io-client');
const { baseUrl, path, token, eventId, sockets, burst, everyMs } = workerData;
const figures = { sent: 0, cut: 0, refusedHandshakes: 0 };
let stopping = false;
const open = new Set();
parentPort.on('message', () => {
  stopping = true;
  for (const socket of open) socket.disconnect();
  parentPort.postMessage(figures);
});
const content = 'x'.repeat(400);
function flood(socket) {
  for (let n = 0; n < burst && socket.connected; n += 1) {
    socket.emit('chatMessage', { eventId, content });
    figures.sent += 1;
  }
}
async function keepFlooding() {
  while (!stopping) {
    const socket = io(baseUrl, { path, transports: ['websocket'], auth: { token: 'Bearer ' + token }, reconnection: false, forceNew: true });
    const connected = await new Promise((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('connect_error', () => resolve(false));
    });
    if (!connected) { figures.refusedHandshakes += 1; await new Promise((r) => setTimeout(r, everyMs)); continue; }
    open.add(socket);
    socket.emit('joinChat', { eventId });
    await new Promise((resolve) => {
      const timer = setInterval(() => flood(socket), everyMs);
      flood(socket);
      socket.once('disconnect', () => { clearInterval(timer); if (!stopping) figures.cut += 1; open.delete(socket); resolve(); });
    });
  }
}
for (let n = 0; n < sockets; n += 1) keepFlooding();
`;

/**
 * `sockets` sockets of one account each sending `burst` chat messages every `everyMs`, without
 * waiting for answers, and opening again when the server cuts them; `stop()` answers what happened.
 */
export function startSocketFlood(
  baseUrl: string,
  token: string,
  eventId: number,
  { sockets = 10, burst = 5_000, everyMs = 1_000 } = {},
): { stop(): Promise<SocketFloodFigures> } {
  const worker = new Worker(FLOODER, {
    eval: true,
    workerData: { baseUrl, path: SOCKET_PATH, token, eventId, sockets, burst, everyMs },
  });
  return {
    stop: () => stopWorker<SocketFloodFigures>(worker),
  };
}
