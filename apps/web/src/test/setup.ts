import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
// How long findBy… and waitFor wait for what the user would see: one setting, in waits.ts.
import './waits';

// jsdom implements neither scrolling, object URLs, ResizeObserver nor IntersectionObserver; the app and
// Headless UI use them. A test that needs an observer to report replaces it (intersection-observer.ts).
window.scrollTo = vi.fn();
Element.prototype.scrollIntoView = vi.fn();
URL.createObjectURL = vi.fn(() => 'blob:preview');
URL.revokeObjectURL = vi.fn();
globalThis.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
globalThis.IntersectionObserver = class {
  readonly root = null;
  readonly rootMargin = '';
  readonly scrollMargin = '';
  readonly thresholds = [];
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
};

afterEach(() => {
  cleanup();
  // A test that faked or held the clock (waits.ts) leaves the next one the real clock.
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});
