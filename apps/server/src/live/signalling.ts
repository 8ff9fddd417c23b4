import { ZAnswerRequest, ZIceCandidateRequest, ZOfferRequest } from '@stagedoor/shared/realtime';
import type { Live, LiveSocket } from './context';
import type { SocketHandlers } from './handlers';

/**
 * WebRTC signalling (spec §7): offers, answers and ICE candidates relayed to `targetId`, with `from`
 * set to the sender's socket id by the server, so nobody can pose as the broadcaster.
 */
export function registerSignalling(live: Live, socket: LiveSocket, handlers: SocketHandlers): void {
  socket.on(
    'offer',
    handlers.unacked(ZOfferRequest, async ({ targetId, offer }) => {
      if (await canSignal(live, socket, targetId))
        live.io.to(targetId).emit('offer', { offer, from: socket.id });
    }),
  );
  socket.on(
    'answer',
    handlers.unacked(ZAnswerRequest, async ({ targetId, answer }) => {
      if (await canSignal(live, socket, targetId)) {
        live.io.to(targetId).emit('answer', { answer, from: socket.id });
      }
    }),
  );
  socket.on(
    'ice-candidate',
    handlers.unacked(ZIceCandidateRequest, async ({ targetId, candidate }) => {
      if (await canSignal(live, socket, targetId)) {
        live.io.to(targetId).emit('ice-candidate', { candidate, from: socket.id });
      }
    }),
  );
}

/**
 * The one relay rule: inside one live stream, from its broadcaster to one of its viewers, or from one
 * of its viewers to its broadcaster. Anything else (another stream, a stale socket, a made-up id) is
 * dropped without a word, so probing reveals nothing.
 */
async function canSignal(live: Live, socket: LiveSocket, targetId: string): Promise<boolean> {
  const stream = socket.data.stream;
  if (stream) {
    const { registry } = live;
    const broadcasterId = await registry.broadcasterOf(stream.eventId);
    const allowed =
      stream.role === 'broadcaster'
        ? broadcasterId === socket.id && (await registry.hasViewer(stream.eventId, targetId))
        : broadcasterId === targetId && (await registry.hasViewer(stream.eventId, socket.id));
    if (allowed) return true;
  }
  live.deps.log.debug({ from: socket.id, targetId, stream }, 'live: signal dropped');
  return false;
}
