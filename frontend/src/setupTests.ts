import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import fs from 'fs';
import path from 'path';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

// Tests read English, every namespace loaded at once (the app loads each lazily).
const localeDir = path.join(__dirname, 'locales', 'en');
const namespaces = fs.readdirSync(localeDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
const en = Object.fromEntries(namespaces.map((ns) => [ns, JSON.parse(fs.readFileSync(path.join(localeDir, `${ns}.json`), 'utf8')) as object]));
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  ns: namespaces,
  defaultNS: 'common',
  resources: { en },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

// findBy and waitFor wait up to 10 s: on a loaded machine antd's screens render slowly.
configure({ asyncUtilTimeout: 10000 });

// Select's dropdown measures itself; jsdom has no ResizeObserver.
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (typeof globalThis.ResizeObserver === 'undefined') Object.assign(globalThis, { ResizeObserver: NoResizeObserver });

// antd reads these; jsdom lacks them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});
window.getComputedStyle = ((get) => (elt: Element) => get(elt))(window.getComputedStyle);

// antd's forms schedule work through MessageChannel, which jsdom lacks: a timer stands in.
class Port {
  onmessage: ((e: { data: unknown }) => void) | null = null;
  peer: Port | null = null;
  postMessage(data: unknown) {
    setTimeout(() => this.peer?.onmessage?.({ data }), 0);
  }
  close() {}
}
class TimerChannel {
  port1 = new Port();
  port2 = new Port();
  constructor() {
    this.port1.peer = this.port2;
    this.port2.peer = this.port1;
  }
}
if (typeof globalThis.MessageChannel === 'undefined') Object.assign(globalThis, { MessageChannel: TimerChannel });

// Under CI a test that fails is run once more, its first failure printed: a test that loses a
// race with a loaded machine shows up in the log by name without turning the run red, and one
// that fails twice still does.
if (process.env.CI) jest.retryTimes(1, { logErrorsBeforeRetry: true });
