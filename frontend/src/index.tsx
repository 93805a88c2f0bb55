import { createRoot } from 'react-dom/client';

import { App } from './app/App';
import { makeStore } from './app/store';
import { initI18n } from './shared/i18n/i18n';
import './app/styles';

initI18n();
const store = makeStore();
createRoot(document.getElementById('root') as HTMLElement).render(<App store={store} />);

if ('serviceWorker' in navigator && process.env.NODE_ENV === 'production') {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
