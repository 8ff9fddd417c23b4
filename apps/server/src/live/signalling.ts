import { ZAnswerRequest, ZIceCandidateRequest, ZOfferRequest } from '@stagedoor/shared/live';
import type { Live, LiveSocket } from './context';
import type { SocketHandlers } from './handlers';

/**
 * WebRTC signalling (spec §7): offers, answers and ICE candidates for `targetId`, handed to the media
 * mode (media.ts), which relays them to the other browser or to the media server.
 */
export function registerSignalling(live: Live, socket: LiveSocket, handlers: SocketHandlers): void {
  socket.on(
    'offer',
    handlers.unacked(ZOfferRequest, ({ targetId, offer }) =>
      live.media.signal(socket, targetId, { kind: 'offer', description: offer }),
    ),
  );
  socket.on(
    'answer',
    handlers.unacked(ZAnswerRequest, ({ targetId, answer }) =>
      live.media.signal(socket, targetId, { kind: 'answer', description: answer }),
    ),
  );
  socket.on(
    'ice-candidate',
    handlers.unacked(ZIceCandidateRequest, ({ targetId, candidate }) =>
      live.media.signal(socket, targetId, { kind: 'ice-candidate', candidate }),
    ),
  );
}
