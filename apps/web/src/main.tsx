import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProvider } from './app/provider';
import { startOpeningPage } from './app/opening-page';
import { AppRoutes } from './app/router';
import { createQueryClient } from './lib/query-client';
import { startSessionCheck } from './lib/session';
import './index.css';

// What the opening screen needs starts now, while React is still to render: the stored session's
// check, and a show's stream page's code and reads.
const queryClient = createQueryClient();
startSessionCheck();
const openingPage = startOpeningPage(window.location.pathname, queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// React renders once the opening screen's code is in (a few ms after this bundle, loaded alongside):
// rendered before, the screen would suspend, and React keeps a suspended screen's fallback up to
// 300 ms after its code arrives, which a fan opening a live show would wait for its picture.
void openingPage.then(() =>
  createRoot(root).render(
    <StrictMode>
      {/* Synchronous navigation: a sign-out and its redirect must land in the same render. */}
      <BrowserRouter useTransitions={false}>
        <AppProvider client={queryClient}>
          <AppRoutes />
        </AppProvider>
      </BrowserRouter>
    </StrictMode>,
  ),
);
