import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { vi } from 'vitest';
import { AppProvider } from '../app/provider';
import { AppRoutes } from '../app/router';

/** Renders the whole app at `path`, as main.tsx does but in memory, and exposes where it ended up. */
export function renderApp(path: string) {
  const current: { location?: Location } = {};
  function LocationProbe() {
    current.location = useLocation();
    return null;
  }
  // user-event waits between the steps of an action on a setTimeout, which fake timers must fire.
  const user = userEvent.setup({ advanceTimers: (ms) => vi.isFakeTimers() && vi.advanceTimersByTime(ms) });
  const view = render(
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <AppProvider>
        <AppRoutes />
      </AppProvider>
      <LocationProbe />
    </MemoryRouter>,
  );
  const location = () => {
    if (!current.location) throw new Error('the router has not rendered');
    const { pathname, search, hash } = current.location;
    return `${pathname}${search}${hash}`;
  };
  return { ...view, user, location };
}
