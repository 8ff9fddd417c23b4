import type { Live, LiveSocket } from './context';
import type { LiveMedia, Signal } from './media';

/**
 * Peer to peer (decision 0014): the broadcaster's browser sends to each viewer's. The server tells the
 * broadcaster who joined and left, and relays signalling inside one stream with `from` set by itself,
 * so nobody can pose as the broadcaster.
 */
export function peerToPeerMedia(live: Omit<Live, 'media'>): LiveMedia {
  const { io, registry } = live;

  const relay = (socket: LiveSocket, targetId: string, signal: Signal) => {
    const from = socket.id;
    const to = io.to(targetId);
    if (signal.kind === 'ice-candidate') to.emit('ice-candidate', { candidate: signal.candidate, from });
    else if (signal.kind === 'offer') to.emit('offer', { offer: signal.description, from });
    else to.emit('answer', { answer: signal.description, from });
  };

  /**
   * The one relay rule: inside one live stream, from its broadcaster to one of its viewers, or from one
   * of its viewers to its broadcaster. Anything else (another stream, a stale socket, a made-up id) is
   * dropped without a word, so probing reveals nothing.
   */
  const canSignal = async (socket: LiveSocket, targetId: string): Promise<boolean> => {
    const stream = socket.data.stream;
    if (!stream) return false;
    const broadcasterId = await registry.broadcasterOf(stream.eventId);
    return stream.role === 'broadcaster'
      ? broadcasterId === socket.id && (await registry.hasViewer(stream.eventId, targetId))
      : broadcasterId === targetId && (await registry.hasViewer(stream.eventId, socket.id));
  };

  return {
    async started(socket, eventId, tookOver) {
      // Taking over (a reconnection within the grace period, or another tab): the viewers are still
      // there, and each needs an offer from this socket.
      if (!tookOver) return;
      for (const viewerId of await registry.viewersOf(eventId)) socket.emit('viewerJoined', { viewerId });
    },

    async viewerJoined(socket, eventId) {
      const broadcasterId = await registry.broadcasterOf(eventId);
      if (broadcasterId) io.to(broadcasterId).emit('viewerJoined', { viewerId: socket.id });
    },

    async viewerLeft(viewerId, eventId) {
      const broadcasterId = await registry.broadcasterOf(eventId);
      if (broadcasterId) io.to(broadcasterId).emit('viewerLeft', { viewerId });
    },

    async broadcasterLeft() {},

    async ended() {},

    async signal(socket, targetId, signal) {
      if (await canSignal(socket, targetId)) relay(socket, targetId, signal);
      else
        live.deps.log.debug(
          { from: socket.id, targetId, stream: socket.data.stream },
          'live: signal dropped',
        );
    },

    async check() {},

    async servers() {
      return [];
    },

    async close() {},
  };
}
