import '@testing-library/jest-dom';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import enCommon from './locales/en/common.json';
import enAuth from './locales/en/auth.json';
import enStore from './locales/en/store.json';
import enCustomers from './locales/en/customers.json';
import enProducts from './locales/en/products.json';
import enStock from './locales/en/stock.json';
import enSettings from './locales/en/settings.json';

// Tests read English, loaded at once (the app loads each namespace lazily).
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  ns: ['common', 'auth', 'store', 'customers', 'products', 'stock', 'settings'],
  defaultNS: 'common',
  resources: { en: { common: enCommon, auth: enAuth, store: enStore, customers: enCustomers, products: enProducts, stock: enStock, settings: enSettings } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

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
