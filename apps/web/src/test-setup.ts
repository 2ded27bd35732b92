import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import '@testing-library/jest-dom/vitest';

// findBy and waitFor wait for what the member would see, however busy the machine: a lazy screen's first import
// can take seconds while other suites run.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no layout, so no scrolling; the app scrolls to the top after each navigation.
window.scrollTo = () => {};

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});
