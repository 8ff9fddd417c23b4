import { Worker } from 'node:worker_threads';

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
    sent += 1;
    const req = http.request(baseUrl + request.path.replaceAll('{n}', String(sent)), { method: request.method, headers: request.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => { statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1; resolve(); });
    });
    req.on('error', () => { statuses.error = (statuses.error || 0) + 1; resolve(); });
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

/** The value below which `share` of `values` lie (0.5: the median). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
}
