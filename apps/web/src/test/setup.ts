import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// A screen's first render loads its code-split chunk: on a loaded machine that takes more than the
// library's default second. findBy… and waitFor wait for what the user would see, up to this long.
configure({ asyncUtilTimeout: 10_000 });

// jsdom implements neither scrolling, object URLs, ResizeObserver nor IntersectionObserver; the app and
// Headless UI use them. A test that needs an observer to report replaces it (see the event list test).
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
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});
