import { isIP } from 'node:net';
import type { VideoRoomHandle } from 'janode/plugins/videoroom';

/**
 * A show bigger than one Janus (decision 0039): its publication on its origin Janus is forwarded to
 * edge Janus servers, each holding a room of the show with a remote publisher (VideoRoom 1.1.x:
 * `add_remote_publisher` on the edge, then `publish_remotely` on the origin, which sends the RTP of
 * every stream of the publisher to the edge's port, unencrypted: the Janus servers talk over a private
 * network). Viewers subscribed on an edge see it as any publisher: their protocol stays `'sfu'`.
 */

/** One of a show's Janus: its origin (where the studio publishes) or an edge; `feed` is what viewers subscribe. */
export type Tier = { janus: string; room: number; feed: number | null };

/** A stream of a publication as `add_remote_publisher` describes it to the edge. */
export type RemoteStream = {
  type: 'audio' | 'video' | 'data';
  mid: string;
  mindex: number;
  codec?: string;
  disabled?: boolean;
};

/** The codecs our rooms allow (janus-media.ts creates them so): the only ones a publication can carry. */
export const ROOM_CODECS = { audio: 'opus', video: 'vp8' } as const;

/**
 * The streams of a publication, from the studio's offer: one per m-line, in its order. Janus numbers a
 * publisher's streams by m-line (mindex), and tells them apart on the forwarded RTP by mindex (each one's
 * SSRC is made of it): the edge must list them in the same order. A rejected m-line (port 0) is disabled.
 */
export function streamsOf(sdp: string): RemoteStream[] {
  return sdp
    .split(/\r?\n(?=m=)/)
    .slice(1)
    .map((section, mindex) => {
      const [, kind = '', port = ''] = /^m=(\w+) (\d+)/.exec(section) ?? [];
      const mid = /\r?\na=mid:(\S+)/.exec(section)?.[1] ?? String(mindex);
      const type = kind === 'audio' || kind === 'video' ? kind : 'data';
      return {
        type,
        mid,
        mindex,
        ...(type === 'data' ? {} : { codec: ROOM_CODECS[type] }),
        ...(port === '0' ? { disabled: true } : {}),
      };
    });
}

/**
 * Which of a show's Janus (0 its origin, then its edges in order) serves the viewer of this rank (0 for
 * the first to join): each takes `max` of them before the next. Ranks come from the show's viewer count
 * at the time of joining, so viewers who left make room for later ones, approximately.
 */
export const tierOf = (rank: number, max: number) => Math.floor(rank / max);

/** How many of a show's `viewers` each of its `tiers` Janus carries by tierOf; beyond them, on the origin. */
export function spread(viewers: number, tiers: number, max: number): number[] {
  const counts = Array.from({ length: tiers }, (_, at) => Math.max(0, Math.min(max, viewers - at * max)));
  counts[0] = (counts[0] ?? 0) + Math.max(0, viewers - tiers * max);
  return counts;
}

/**
 * A VideoRoom request janode has no method for (the remote publishers'): answers the plugin's data; an
 * error Janus answers rejects, as janode's own requests do (with its code on `_code`).
 */
async function request(handle: VideoRoomHandle, body: Record<string, unknown>) {
  const response = await handle.message(body);
  return (response.plugindata?.data ?? {}) as Record<string, unknown>;
}

/** What the edge gives back: where the origin sends the RTP, and where it hears the edge's RTCP (keyframe requests). */
export async function addRemotePublisher(
  edge: VideoRoomHandle,
  params: { room: number; feed: number; streams: RemoteStream[]; host: string },
): Promise<{ port: number; rtcpPort: number }> {
  const answer = await request(edge, {
    request: 'add_remote_publisher',
    room: params.room,
    id: params.feed,
    display: 'broadcaster',
    streams: params.streams,
    // Its ports on the edge's private address only (the origin sends there), not on every address:
    // Janus takes plain RTP on them from whoever sends it. A host name is no address to bind to.
    ...(isIP(params.host) ? { iface: params.host } : {}),
  });
  const { port, rtcp_port: rtcpPort } = answer;
  if (typeof port !== 'number' || typeof rtcpPort !== 'number')
    throw new Error(`add_remote_publisher answered no ports: ${JSON.stringify(answer)}`);
  return { port, rtcpPort };
}

export async function publishRemotely(
  origin: VideoRoomHandle,
  params: {
    room: number;
    feed: number;
    remoteId: string;
    host: string;
    port: number;
    rtcpPort: number;
    adminKey?: string;
  },
): Promise<void> {
  await request(origin, {
    request: 'publish_remotely',
    room: params.room,
    publisher_id: params.feed,
    remote_id: params.remoteId,
    host: params.host,
    port: params.port,
    rtcp_port: params.rtcpPort,
    // Forwarding RTP anywhere is an admin's request (lock_rtp_forward in the VideoRoom's config).
    ...(params.adminKey ? { admin_key: params.adminKey } : {}),
  });
}

export async function unpublishRemotely(
  origin: VideoRoomHandle,
  params: { room: number; feed: number; remoteId: string; adminKey?: string },
): Promise<void> {
  await request(origin, {
    request: 'unpublish_remotely',
    room: params.room,
    publisher_id: params.feed,
    remote_id: params.remoteId,
    ...(params.adminKey ? { admin_key: params.adminKey } : {}),
  });
}

export async function removeRemotePublisher(
  edge: VideoRoomHandle,
  params: { room: number; feed: number },
): Promise<void> {
  await request(edge, { request: 'remove_remote_publisher', room: params.room, id: params.feed });
}
