import '@testing-library/jest-dom/vitest';
import { Blob as NodeBlob, File as NodeFile } from 'node:buffer';
import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { setLanguage } from '@/i18n';

// Tests read the English texts unless they switch language themselves.
setLanguage('en');

afterEach(() => {
  cleanup();
  setLanguage('en');
});

// jsdom lacks what Radix and our layout use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
if (!window.matchMedia) {
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

// A browser has one Blob, File and FormData. Here jsdom brings its own, but requests are built by Node's fetch (the
// playground sends through @docflow/client, which makes a Request), and Node takes only its own in a multipart
// body: the tests use Node's, as the page's requests do in a browser. (Node's FormData class is reached through a
// form it parses: jsdom has replaced the global.)
const nodeForm = await new Response('', {
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
}).formData();
globalThis.Blob = NodeBlob as unknown as typeof Blob;
globalThis.File = NodeFile as unknown as typeof File;
globalThis.FormData = nodeForm.constructor as typeof FormData;
