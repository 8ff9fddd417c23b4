import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProvider } from './app/provider';
import { startOpeningPage } from './app/opening-page';
import { AppRoutes } from './app/router';
import './index.css';

startOpeningPage(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    {/* Synchronous navigation: a sign-out and its redirect must land in the same render. */}
    <BrowserRouter useTransitions={false}>
      <AppProvider>
        <AppRoutes />
      </AppProvider>
    </BrowserRouter>
  </StrictMode>,
);
