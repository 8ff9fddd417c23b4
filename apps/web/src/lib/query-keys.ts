/**
 * Every cached API read, keyed by the resource first. Several screens read the same resource (the
 * dashboard, My Events and the simple creator view all read a creator's events), so a write
 * invalidates one prefix (`queryKeys.events.all`, `queryKeys.orders.all`, `queryKeys.earnings.all`) and
 * every screen that shows the resource reloads. Two screens that share a key must parse the answer with
 * the same schema.
 */
export const queryKeys = {
  events: {
    all: ['events'] as const,
    upcoming: (pageSize: number, search: Record<string, string>) =>
      ['events', 'upcoming', pageSize, search] as const,
    detail: (id: string) => ['events', 'detail', id] as const,
    forEditing: (id: string) => ['events', 'editing', id] as const,
    byCreator: (creatorId: number | string, pageSize: number) =>
      ['events', 'creator', String(creatorId), pageSize] as const,
    byNickname: (nickname: string) => ['events', 'nickname', nickname] as const,
    creatorStats: (creatorId: number) => ['events', 'creator-stats', creatorId] as const,
  },
  orders: {
    all: ['orders'] as const,
    mine: (accountId: number, pageSize: number) => ['orders', 'mine', accountId, pageSize] as const,
    summary: (accountId: number, eventId?: number) =>
      ['orders', 'summary', accountId, eventId ?? 'all'] as const,
    detail: (id: string) => ['orders', 'detail', id] as const,
    quote: (request: object | null) => ['orders', 'quote', request] as const,
  },
  waitlist: {
    event: (eventId: number) => ['waitlist', eventId] as const,
    place: (eventId: number, accountId: number) => ['waitlist', eventId, accountId] as const,
  },
  promoCodes: {
    list: (eventId: number) => ['promo-codes', eventId] as const,
  },
  attendees: {
    list: (eventId: string, search: string, pageSize: number) =>
      ['attendees', eventId, search, pageSize] as const,
  },
  payments: {
    config: ['payments', 'config'] as const,
    account: ['payments', 'account'] as const,
  },
  earnings: {
    all: ['earnings'] as const,
    summary: ['earnings', 'summary'] as const,
    payouts: ['earnings', 'payouts'] as const,
  },
  creators: {
    byNickname: (nickname: string) => ['creators', 'nickname', nickname] as const,
    byId: (creatorId: number) => ['creators', 'id', creatorId] as const,
  },
  live: {
    config: (eventId: number) => ['live', 'config', eventId] as const,
    status: (eventId: number) => ['live', 'status', eventId] as const,
    replay: (eventId: number) => ['live', 'replay', eventId] as const,
    replayChat: (eventId: number) => ['live', 'replay-chat', eventId] as const,
  },
  analytics: {
    event: (eventId: string) => ['analytics', 'event', eventId] as const,
  },
  profile: (role: string, accountId: number) => ['profile', role, accountId] as const,
  users: {
    detail: (id: string) => ['users', id] as const,
  },
} as const;
