import { Worker } from 'node:worker_threads';
import { SOCKET_PATH } from '@stagedoor/shared/live';
import { stopWorker } from './flood';

export interface ChatFigures {
  sockets: number;
  sent: number;
  /** Messages the server acknowledged with success: each should reach every socket in the chat. */
  accepted: number;
  refused: number;
  /** chatMessage events the sockets received, and how many they should have (accepted × sockets). */
  delivered: number;
  expected: number;
  disconnected: number;
}

// On a thread of its own: a few hundred sockets receiving thousands of messages a second would
// otherwise load the event loop that times health.
const CHATTERS = `
const { workerData, parentPort } = require('node:worker_threads');
const { io } = require('socket.io-client');
const { baseUrl, path, tokens, eventId, messagesPerSecond } = workerData;
const figures = { sockets: 0, sent: 0, accepted: 0, refused: 0, delivered: 0, expected: 0, disconnected: 0 };
const sockets = [];
let stopping = false;
let timer;
parentPort.on('message', () => {
  stopping = true;
  clearInterval(timer);
  // Messages still in flight are counted as they arrive: the figures are given once every message
  // sent has its answer and every accepted one has reached every socket, or after 30 s at most.
  const givenUpAt = Date.now() + 30000;
  const settled = setInterval(() => {
    figures.expected = figures.accepted * figures.sockets;
    const answered = figures.accepted + figures.refused === figures.sent;
    if ((!answered || figures.delivered < figures.expected) && Date.now() < givenUpAt) return;
    clearInterval(settled);
    for (const socket of sockets) socket.disconnect();
    parentPort.postMessage(figures);
  }, 50);
});
async function open(token) {
  const socket = io(baseUrl, { path, transports: ['websocket'], auth: { token: 'Bearer ' + token }, reconnection: false, forceNew: true });
  await new Promise((resolve, reject) => { socket.once('connect', resolve); socket.once('connect_error', reject); });
  const joined = await socket.timeout(30000).emitWithAck('joinChat', { eventId });
  if (!joined.success) throw new Error('joinChat refused: ' + joined.error);
  socket.on('chatMessage', () => { figures.delivered += 1; });
  socket.on('disconnect', () => { if (!stopping) figures.disconnected += 1; });
  return socket;
}
(async () => {
  for (let n = 0; n < tokens.length; n += 20) {
    sockets.push(...(await Promise.all(tokens.slice(n, n + 20).map(open))));
  }
  figures.sockets = sockets.length;
  parentPort.postMessage('ready');
  let next = 0;
  timer = setInterval(() => {
    const socket = sockets[next++ % sockets.length];
    figures.sent += 1;
    socket.timeout(30000).emitWithAck('chatMessage', { eventId, content: 'Hello from the crowd ' + figures.sent })
      .then((answer) => { if (answer.success) figures.accepted += 1; else figures.refused += 1; })
      .catch(() => { figures.refused += 1; });
  }, 1000 / messagesPerSecond);
})().catch((error) => { parentPort.postMessage({ error: String(error) }); });
`;

/**
 * Opens a socket per token, joins the event's chat on each, and once all are in sends
 * `messagesPerSecond` messages in turns; `stop()` ends it and answers what was sent and delivered.
 */
export async function startChatters(
  baseUrl: string,
  tokens: string[],
  eventId: number,
  messagesPerSecond: number,
): Promise<{ stop(): Promise<ChatFigures> }> {
  const worker = new Worker(CHATTERS, {
    eval: true,
    workerData: { baseUrl, path: SOCKET_PATH, tokens, eventId, messagesPerSecond },
  });
  const first = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (first !== 'ready') throw new Error(`the chatters did not start: ${JSON.stringify(first)}`);
  return {
    stop: () => stopWorker<ChatFigures>(worker),
  };
}
