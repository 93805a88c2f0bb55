import { Suspense, useEffect, useState } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import thTH from 'antd/locale/th_TH';
import enUS from 'antd/locale/en_US';
import { useTranslation } from 'react-i18next';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';

import { BlockingLoader } from './BlockingLoader';
import { makeRouter } from './router';
import type { AppStore } from './store';
import { DialogHost } from '@/shared/dialogs/DialogHost';

const THEME = {
  token: { colorPrimary: '#0b2545', borderRadius: 6, fontFamily: "'Sarabun', 'Noto Sans Thai', system-ui, sans-serif" },
  components: {
    Menu: { itemSelectedBg: '#e3ebf6', itemSelectedColor: '#0b2545', subMenuItemBg: '#ffffff' },
    // Chosen rows stay readable: the navy primary's own tint is too dark behind text.
    Table: { rowSelectedBg: '#eef3fa', rowSelectedHoverBg: '#e3ebf6' },
  },
};

function Themed() {
  const { i18n } = useTranslation('common');
  const [router] = useState(makeRouter);
  useEffect(() => {
    document.title = i18n.t('common:appName');
  }, [i18n, i18n.language]);
  return (
    <ConfigProvider locale={i18n.language === 'en' ? enUS : thTH} theme={THEME}>
      <AntApp>
        <RouterProvider router={router} />
        <DialogHost />
      </AntApp>
    </ConfigProvider>
  );
}

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <Suspense fallback={<BlockingLoader />}>
        <Themed />
      </Suspense>
    </Provider>
  );
}
