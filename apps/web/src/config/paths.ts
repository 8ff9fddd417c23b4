import { generatePath } from 'react-router';

/** Every route pattern of the app (spec §2), as the router matches them. */
export const routes = {
  home: '/',
  founders: '/founders',
  terms: '/terms',
  privacyPolicy: '/privacy-policy',
  join: '/join',

  login: '/login',
  register: '/register',
  userLogin: '/user/login',
  userRegister: '/user/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',

  events: '/events',
  eventDetails: '/events/:id',
  eventStream: '/events/:id/stream',
  /** The link in every mail that leads to a show: signs its ticket holder in, then the stream. */
  watch: '/watch/:token',
  checkout: '/events/:id/checkout',
  purchaseConfirmation: '/purchase-confirmation/:eventId/:quantity',

  creatorProfile: '/creator/:nickname',
  creatorSimpleView: '/creators/dashboard/creator/:id',

  userDashboard: '/user/dashboard',
  userMyTickets: '/user/dashboard/my-tickets',
  userProfile: '/user/dashboard/profile',

  creatorDashboard: '/creators/dashboard',
  creatorProfileSettings: '/creators/dashboard/profile',
  creatorMyEvents: '/creators/dashboard/my-events',
  creatorEarnings: '/creators/dashboard/earnings',
  createEvent: '/creators/dashboard/events/create',
  editEvent: '/creators/dashboard/events/:id/edit',
  creatorEventStream: '/creators/dashboard/events/:id/stream',
  eventAnalytics: '/creators/dashboard/events/:id/analytics',
  creatorEventAttendees: '/creators/dashboard/events/:id/attendees',
  creatorMyTickets: '/creators/dashboard/my-tickets',
} as const;

type Id = string | number;

const withRedirect = (path: string, redirect?: string | null) =>
  redirect ? `${path}?${new URLSearchParams({ redirect }).toString()}` : path;

/** Hrefs to link to: the static ones as they are, the parameterised ones through builders. */
export const paths = {
  home: routes.home,
  founders: routes.founders,
  terms: routes.terms,
  privacyPolicy: routes.privacyPolicy,

  login: (redirect?: string | null) => withRedirect(routes.login, redirect),
  register: (redirect?: string | null) => withRedirect(routes.register, redirect),
  userLogin: (redirect?: string | null) => withRedirect(routes.userLogin, redirect),
  userRegister: (redirect?: string | null) => withRedirect(routes.userRegister, redirect),

  forgotPassword: routes.forgotPassword,
  events: routes.events,
  eventDetails: (id: Id) => generatePath(routes.eventDetails, { id: String(id) }),
  eventStream: (id: Id) => generatePath(routes.eventStream, { id: String(id) }),
  checkout: (id: Id) => generatePath(routes.checkout, { id: String(id) }),
  /** With the order, the screen follows its status until the payment is confirmed. */
  purchaseConfirmation: (eventId: Id, quantity: number, orderId?: Id) => {
    const path = generatePath(routes.purchaseConfirmation, {
      eventId: String(eventId),
      quantity: String(quantity),
    });
    return orderId === undefined
      ? path
      : `${path}?${new URLSearchParams({ order: String(orderId) }).toString()}`;
  },

  creatorProfile: (nickname: string) => generatePath(routes.creatorProfile, { nickname }),
  creatorSimpleView: (id: Id) => generatePath(routes.creatorSimpleView, { id: String(id) }),

  userDashboard: routes.userDashboard,
  userMyTickets: routes.userMyTickets,
  userProfile: routes.userProfile,

  creatorDashboard: routes.creatorDashboard,
  creatorProfileSettings: routes.creatorProfileSettings,
  creatorMyEvents: routes.creatorMyEvents,
  creatorEarnings: routes.creatorEarnings,
  createEvent: routes.createEvent,
  editEvent: (id: Id) => generatePath(routes.editEvent, { id: String(id) }),
  creatorEventStream: (id: Id) => generatePath(routes.creatorEventStream, { id: String(id) }),
  eventAnalytics: (id: Id) => generatePath(routes.eventAnalytics, { id: String(id) }),
  creatorEventAttendees: (id: Id) => generatePath(routes.creatorEventAttendees, { id: String(id) }),
  creatorMyTickets: routes.creatorMyTickets,
} as const;
