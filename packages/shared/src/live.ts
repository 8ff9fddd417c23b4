import { z } from 'zod';
import { positiveId } from './events';
import { CHAT_MESSAGE_MAX_LENGTH } from './limits';

export const SOCKET_PATH = '/socket.io';

// Ids fit the database's integer columns: a larger one is refused here, never sent to a query.
const ZEventId = positiveId('eventId');
/**
 * Fields clients send as spec §7 says, which the server ignores (identity and time come from the token
 * and its clock): whatever they hold, they never refuse a message.
 */
const ZIgnored = z.unknown().optional();

export const ZStreamRequest = z.object({ eventId: ZEventId, userId: ZIgnored });
export type StreamRequest = z.input<typeof ZStreamRequest>;
/**
 * `rehearsal`: goes live for the creator alone (fans are told the show has not started, nobody is
 * mailed); a start without it during a rehearsal opens the same stream to fans.
 */
export const ZStartStreamRequest = ZStreamRequest.extend({ rehearsal: z.boolean().optional() });
export type StartStreamRequest = z.input<typeof ZStartStreamRequest>;
export const ZEventRequest = z.object({ eventId: ZEventId });
export type EventRequest = z.input<typeof ZEventRequest>;

/** A socket id of the other peer; the server only relays inside one stream. */
const ZTargetId = z.string().min(1).max(64);
const ZSessionDescription = z.object({
  type: z.enum(['offer', 'answer', 'pranswer', 'rollback']),
  sdp: z.string().max(200_000).optional(),
});
export type SessionDescription = z.infer<typeof ZSessionDescription>;
const ZIceCandidate = z.object({
  candidate: z.string().max(2_000).optional(),
  sdpMid: z.string().max(64).nullable().optional(),
  sdpMLineIndex: z.number().int().min(0).max(1_000).nullable().optional(),
  usernameFragment: z.string().max(256).nullable().optional(),
});
export type IceCandidate = z.infer<typeof ZIceCandidate>;

export const ZOfferRequest = z.object({ targetId: ZTargetId, offer: ZSessionDescription });
export const ZAnswerRequest = z.object({ targetId: ZTargetId, answer: ZSessionDescription });
export const ZIceCandidateRequest = z.object({ targetId: ZTargetId, candidate: ZIceCandidate });

/** What a client sends; userId, username, timestamp and userAvatar are replaced by the server's own. */
export const ZChatMessageRequest = z.object({
  eventId: ZEventId,
  content: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(CHAT_MESSAGE_MAX_LENGTH, `Message must be at most ${CHAT_MESSAGE_MAX_LENGTH} characters`),
  userId: ZIgnored,
  username: ZIgnored,
  timestamp: ZIgnored,
  userAvatar: ZIgnored,
});
export type ChatMessageRequest = z.input<typeof ZChatMessageRequest>;

export const ZDeleteChatMessageRequest = z.object({
  eventId: ZEventId,
  messageId: positiveId('messageId'),
});
export const ZMuteUserRequest = z.object({ eventId: ZEventId, userId: positiveId('userId') });

/**
 * A chat message as every client receives it (spec §3), with the server's id. Beyond the spec,
 * `isCreator` marks the event creator's messages; a fan whose name reads as the creator's has their
 * nickname appended to `username` by the server.
 */
export interface ChatMessage {
  id: number;
  eventId: number;
  userId: number;
  username: string;
  content: string;
  /** Milliseconds since the epoch, from the server's clock. */
  timestamp: number;
  /** The image path for the author's role (creator or user profile image), or null. */
  userAvatar: string | null;
  /** Written by the event's creator. */
  isCreator: boolean;
}

/** Why the server refused a socket request: clients branch on the code; `error` is for people. */
export const LIVE_ERROR_CODES = [
  'INVALID_REQUEST',
  'EVENT_NOT_FOUND',
  'NOT_FOUND',
  'FORBIDDEN',
  'CONFLICT',
  'RATE_LIMITED',
  /** Only the event's creator and ticket holders watch and chat. */
  'TICKET_REQUIRED',
  /** The account's ticket for the event was refunded (its show cancelled, or a refund) and it holds no other. */
  'TICKET_REFUNDED',
  /** The account already watches on as many screens as it holds tickets. */
  'NO_FREE_SEAT',
  /** The stream is not live (yet, or any more): wait for `streamStarted`. */
  'STREAM_NOT_LIVE',
  /** In a refused handshake's `connect_error` (`data.code`): the account has all its sockets open. */
  'TOO_MANY_CONNECTIONS',
  'INTERNAL',
] as const;
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[number];
export type Refusal = { success: false; error: string; code: LiveErrorCode };
export type Ack<T = object> = (answer: ({ success: true } & T) | Refusal) => void;

/** Whether the camera overlay is on: it travels beside the media, which cannot tell an idle track. */
export type StreamLayout = { overlay: boolean };
export const ZStreamLayoutRequest = z.object({ eventId: ZEventId, overlay: z.boolean() });

/** `stopped`: the creator ended the show; `lost`: the broadcaster vanished and did not come back in time. */
export const STREAM_END_REASONS = ['stopped', 'lost'] as const;
export type StreamEndReason = (typeof STREAM_END_REASONS)[number];

/**
 * What the creator sees after Stop: the show from the moment it opened to fans (ISO dates), the most
 * viewers at once and the viewers averaged over it, the chat messages written meanwhile, and the
 * tickets sold for the event.
 */
export interface ShowSummary {
  startedAt: string;
  endedAt: string;
  peakViewers: number;
  averageViewers: number;
  chatMessages: number;
  ticketsSold: number;
}

export interface ClientToServerEvents {
  /**
   * `isLive`: the stream is live now for this account (a fan is not told of a rehearsal); `rehearsing`,
   * to its creator: live for them alone. The creator may resume either from a reloaded studio.
   */
  connectToStream: (
    request: StreamRequest,
    ack: Ack<{ viewerCount: number; isLive: boolean; rehearsing: boolean }>,
  ) => void;
  startStream: (request: StartStreamRequest, ack: Ack) => void;
  /** `summary`: null when the stream was only rehearsed, or not live any more. */
  stopStream: (request: EventRequest, ack: Ack<{ summary: ShowSummary | null }>) => void;
  joinStream: (request: StreamRequest, ack: Ack<{ viewerCount: number }>) => void;
  joinChat: (request: EventRequest, ack: Ack<{ messages: ChatMessage[] }>) => void;
  chatMessage: (request: ChatMessageRequest, ack: Ack<{ message: ChatMessage }>) => void;
  deleteChatMessage: (request: z.input<typeof ZDeleteChatMessageRequest>, ack: Ack) => void;
  muteUser: (request: z.input<typeof ZMuteUserRequest>, ack: Ack) => void;
  offer: (request: z.input<typeof ZOfferRequest>) => void;
  answer: (request: z.input<typeof ZAnswerRequest>) => void;
  'ice-candidate': (request: z.input<typeof ZIceCandidateRequest>) => void;
  /** From the broadcaster: the layout viewers should show. */
  streamLayout: (request: z.input<typeof ZStreamLayoutRequest>) => void;
}

export interface ServerToClientEvents {
  viewerCountUpdate: (payload: { viewerCount: number }) => void;
  viewerJoined: (payload: { viewerId: string }) => void;
  viewerLeft: (payload: { viewerId: string }) => void;
  offer: (payload: { offer: SessionDescription; from: string }) => void;
  answer: (payload: { answer: SessionDescription; from: string }) => void;
  'ice-candidate': (payload: { candidate: IceCandidate; from: string }) => void;
  /** To the sockets waiting in the stream's room: it is live, join now. */
  streamStarted: (payload: { eventId: number }) => void;
  streamEnded: (payload: { reason: StreamEndReason }) => void;
  /** To the viewers: the creator's connection dropped; the show goes on if they are back within the grace period. */
  streamReconnecting: () => void;
  /** To the viewers: the creator is back after `streamReconnecting`; their picture follows. */
  streamResumed: () => void;
  /** To the viewers: the broadcaster's layout, when it changes and right after joining. */
  streamLayout: (layout: StreamLayout) => void;
  chatMessage: (message: ChatMessage) => void;
  chatMessageDeleted: (payload: { eventId: number; messageId: number }) => void;
}

/**
 * How a show's media travels: `p2p`, from the broadcaster's browser to each viewer's; `janus`, through
 * a media server, which the browsers reach as the peer `SFU_PEER_ID` (decision 0017).
 */
export const MEDIA_MODES = ['p2p', 'janus'] as const;
export type MediaMode = (typeof MEDIA_MODES)[number];
/** The `targetId` and `from` that stand for the media server in Janus mode. */
export const SFU_PEER_ID = 'sfu';

/** GET /api/live/config: what a browser needs before it opens a peer connection. */
export const ZLiveConfig = z.object({
  iceServers: z.array(
    z.object({
      urls: z.union([z.string(), z.array(z.string())]),
      username: z.string().optional(),
      credential: z.string().optional(),
    }),
  ),
  media: z.enum(MEDIA_MODES),
});
export type LiveConfig = z.infer<typeof ZLiveConfig>;

/** GET /api/events/{id}/live: whether the event's creator is broadcasting it now. */
export const ZLiveStatus = z.object({ live: z.boolean() });
export type LiveStatus = z.infer<typeof ZLiveStatus>;

/** The `performance.mark` a viewer's page sets when it asks to join: the start of its wait for a picture. */
export const JOIN_STREAM_MARK = 'stagedoor:join-stream';
