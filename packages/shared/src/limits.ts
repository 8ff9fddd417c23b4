/** Business constants of spec §9, shared by the server and the web client. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png'] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** The largest id any row can have (a PostgreSQL integer): larger ones name nothing. */
export const ID_MAX = 2_147_483_647;

export const NICKNAME_MAX_LENGTH = 32;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const BIOGRAPHY_MAX_LENGTH = 2000;

export const TOAST_AUTO_CLOSE_MS = 3000;

export const EVENT_NAME_MAX_LENGTH = 200;
export const EVENT_DESCRIPTION_MAX_LENGTH = 5000;
export const EVENT_PRICE_MAX = 100_000;
export const EVENT_MAX_TICKETS_MAX = 100_000;
/** The ticket types one event may sell, and the length of a type's name. */
export const TICKET_TYPES_MAX = 10;
export const TICKET_TYPE_NAME_MAX_LENGTH = 60;
/**
 * The quotes (POST /orders/quote) one account may ask for in a minute: a quote tells whether a promo code
 * exists, so codes are tried at a human's pace only. The checkout never asks faster.
 */
export const QUOTES_PER_ACCOUNT_PER_MINUTE = 30;
/** Tickets one buyer may hold of an event whose creator set no maximum per buyer (fewer if the stock is). */
export const DEFAULT_MAX_PER_BUYER = 10;
/** The rows a paged list (GET /events, GET /orders) answers when not asked for a number, and at most. */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 100;
/** The longest search text of GET /events?q. */
export const EVENT_SEARCH_MAX_LENGTH = 100;
/** The most words GET /events?q matches at once (each must appear): more narrow nothing a fan needs. */
export const EVENT_SEARCH_MAX_WORDS = 8;
/**
 * The words of a search text: what every one of them must match. Here, with no zod, so that the web's
 * first load (the event search) does not bring the schemas in.
 */
export const searchWords = (q: string): string[] => q.split(/\s+/).filter(Boolean);

export const CHAT_MESSAGE_MAX_LENGTH = 500;
export const CHAT_HISTORY_LIMIT = 50;
/** Viewer retries (spec §9). */
export const VIEWER_RETRY_MS = 5000;
export const WAITING_FOR_STREAM_RETRY_MS = 20_000;
export const SOCKET_RECONNECTION_ATTEMPTS = 5;
export const SOCKET_RECONNECTION_DELAY_MS = 1000;
