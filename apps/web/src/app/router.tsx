import { Navigate, Route, Routes } from 'react-router';
import { paths, routes } from '../config/paths';
import { ForgotPasswordRoute, ResetPasswordRoute } from '../features/auth/routes/password-reset';
import { LoginRoute } from '../features/auth/routes/login';
import { RegisterRoute } from '../features/auth/routes/register';
import { CreatorProfileRoute } from '../features/creators/routes/creator-profile';
import { CreatorSimpleViewRoute } from '../features/creators/routes/creator-simple-view';
import { CreatorDashboardRoute } from '../features/dashboard/routes/creator-dashboard';
import { UserDashboardRoute } from '../features/dashboard/routes/user-dashboard';
import { EarningsRoute } from '../features/earnings/routes/earnings';
import { CheckoutRoute } from '../features/events/routes/checkout';
import { CreateEventRoute } from '../features/events/routes/create-event';
import { EditEventRoute } from '../features/events/routes/edit-event';
import { EventDetailsRoute } from '../features/events/routes/event-details';
import { EventListRoute } from '../features/events/routes/event-list';
import { MyEventsRoute } from '../features/events/routes/my-events';
import { PurchaseConfirmationRoute } from '../features/events/routes/purchase-confirmation';
import { FoundersRoute } from '../features/marketing/routes/founders';
import { HomeRoute } from '../features/marketing/routes/home';
import { PrivacyPolicyRoute } from '../features/marketing/routes/privacy-policy';
import { TermsRoute } from '../features/marketing/routes/terms';
import { ProfileRoute } from '../features/profile/routes/profile';
import { EventStreamRoute } from '../features/stream/routes/event-stream';
import { MyTicketsRoute } from '../features/tickets/routes/my-tickets';
import { AppLayout } from './layout/app-layout';
import { RequireAuth } from './layout/require-auth';
import { NotFoundRoute } from './not-found';

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
          <Route path={routes.creatorMyTickets} element={<MyTicketsRoute />} />
        </Route>

        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
