import { createElement, lazy, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { paths, routes } from '../config/paths';
import { registerPageLoader } from '../lib/page-preload';
import { EventListRoute } from '../features/events/routes/event-list';
import { HomeRoute } from '../features/marketing/routes/home';
import { AppLayout } from './layout/app-layout';
import { RequireAuth } from './layout/require-auth';
import { NotFoundRoute } from './not-found';

/**
 * A screen loaded when first shown: `/` and `/events` (imported above) carry only what they show; the
 * forms, the date picker, the socket client and the rest come with the screens that use them.
 * `preload()` starts loading it ahead; a screen whose code is already here renders at once, not
 * through Suspense (whose fallback React keeps up for a while, up to 300 ms, even when the code comes
 * a moment later).
 */
function page<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
) {
  let loaded: ComponentType<Props> | null = null;
  const preload = async () => {
    loaded = (await load())[name];
    return loaded;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  const Page = (props: Props) => (loaded ? createElement(loaded, props) : createElement(Lazy, props));
  return Object.assign(Page, { preload });
}

const ForgotPasswordRoute = page(
  () => import('../features/accounts/routes/password-reset'),
  'ForgotPasswordRoute',
);
const ResetPasswordRoute = page(
  () => import('../features/accounts/routes/password-reset'),
  'ResetPasswordRoute',
);
const LoginRoute = page(() => import('../features/accounts/routes/login'), 'LoginRoute');
const RegisterRoute = page(() => import('../features/accounts/routes/register'), 'RegisterRoute');
const CreatorProfileRoute = page(
  () => import('../features/creators/routes/creator-profile'),
  'CreatorProfileRoute',
);
const CreatorSimpleViewRoute = page(
  () => import('../features/creators/routes/creator-simple-view'),
  'CreatorSimpleViewRoute',
);
const CreatorDashboardRoute = page(
  () => import('../features/dashboard/routes/creator-dashboard'),
  'CreatorDashboardRoute',
);
const UserDashboardRoute = page(
  () => import('../features/dashboard/routes/user-dashboard'),
  'UserDashboardRoute',
);
const EarningsRoute = page(() => import('../features/money/routes/earnings'), 'EarningsRoute');
const EventAnalyticsRoute = page(
  () => import('../features/analytics/routes/event-analytics'),
  'EventAnalyticsRoute',
);
const CheckoutRoute = page(() => import('../features/events/routes/checkout'), 'CheckoutRoute');
const CreateEventRoute = page(() => import('../features/events/routes/create-event'), 'CreateEventRoute');
const EditEventRoute = page(() => import('../features/events/routes/edit-event'), 'EditEventRoute');
const EventDetailsRoute = page(() => import('../features/events/routes/event-details'), 'EventDetailsRoute');
const MyEventsRoute = page(() => import('../features/events/routes/my-events'), 'MyEventsRoute');
const PurchaseConfirmationRoute = page(
  () => import('../features/events/routes/purchase-confirmation'),
  'PurchaseConfirmationRoute',
);
const FoundersRoute = page(() => import('../features/marketing/routes/founders'), 'FoundersRoute');
const PrivacyPolicyRoute = page(
  () => import('../features/marketing/routes/privacy-policy'),
  'PrivacyPolicyRoute',
);
const TermsRoute = page(() => import('../features/marketing/routes/terms'), 'TermsRoute');
const ProfileRoute = page(() => import('../features/accounts/routes/profile'), 'ProfileRoute');
const EventStreamRoute = page(() => import('../features/live/routes/event-stream'), 'EventStreamRoute');
registerPageLoader('stream', EventStreamRoute.preload);
const WatchLinkRoute = page(() => import('../features/live/routes/watch-link'), 'WatchLinkRoute');
const MyTicketsRoute = page(() => import('../features/orders/routes/my-tickets'), 'MyTicketsRoute');
const AttendeesRoute = page(() => import('../features/attendees/routes/attendees'), 'AttendeesRoute');

/** The route table of spec §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route path={routes.home} element={<HomeRoute />} />
        <Route path={routes.founders} element={<FoundersRoute />} />
        <Route path={routes.terms} element={<TermsRoute />} />
        <Route path={routes.privacyPolicy} element={<PrivacyPolicyRoute />} />
        <Route path={routes.join} element={<Navigate to={paths.register()} replace />} />

        <Route path={routes.login} element={<LoginRoute role="creator" />} />
        <Route path={routes.register} element={<RegisterRoute role="creator" />} />
        <Route path={routes.userLogin} element={<LoginRoute role="user" />} />
        <Route path={routes.userRegister} element={<RegisterRoute role="user" />} />
        <Route path={routes.forgotPassword} element={<ForgotPasswordRoute />} />
        <Route path={routes.resetPassword} element={<ResetPasswordRoute />} />

        <Route path={routes.events} element={<EventListRoute />} />
        <Route path={routes.eventDetails} element={<EventDetailsRoute />} />
        <Route path={routes.watch} element={<WatchLinkRoute />} />
        <Route path={routes.creatorProfile} element={<CreatorProfileRoute />} />
        <Route path={routes.creatorSimpleView} element={<CreatorSimpleViewRoute />} />

        <Route element={<RequireAuth />}>
          <Route path={routes.userDashboard} element={<UserDashboardRoute />} />
          <Route path={routes.userMyTickets} element={<MyTicketsRoute />} />
          <Route path={routes.userProfile} element={<ProfileRoute />} />
          <Route path={routes.eventStream} element={<EventStreamRoute />} />
          <Route path={routes.checkout} element={<CheckoutRoute />} />
          <Route path={routes.purchaseConfirmation} element={<PurchaseConfirmationRoute />} />
          <Route path={routes.creatorDashboard} element={<CreatorDashboardRoute />} />
          <Route path={routes.creatorProfileSettings} element={<ProfileRoute />} />
          <Route path={routes.creatorMyEvents} element={<MyEventsRoute />} />
          <Route path={routes.creatorEarnings} element={<EarningsRoute />} />
          <Route path={routes.createEvent} element={<CreateEventRoute />} />
          <Route path={routes.editEvent} element={<EditEventRoute />} />
          <Route path={routes.creatorEventStream} element={<EventStreamRoute />} />
          <Route path={routes.eventAnalytics} element={<EventAnalyticsRoute />} />
          <Route path={routes.creatorEventAttendees} element={<AttendeesRoute />} />
          <Route path={routes.creatorMyTickets} element={<MyTicketsRoute />} />
        </Route>

        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
