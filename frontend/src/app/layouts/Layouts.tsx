// Layouts (SPEC §2): default (sidebar), no-sidebar, and search-bar, each in a desktop and a
// mobile variant chosen by device detection.
import { useState } from 'react';
import { Drawer, Input, Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router-dom';

import { useAddressParams } from '@/shared/useAddressParams';

import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { useIsMobile } from './useDevice';

function SearchBar({ mobile }: { mobile: boolean }) {
  const { t } = useTranslation('common');
  const { params, set } = useAddressParams();
  // Each search-bar screen names what its search finds (route handle `search`).
  const matches = useMatches();
  const what = [...matches].reverse().map((m) => (m.handle as { search?: string } | undefined)?.search).find(Boolean) ?? 'any';
  return (
    <Input.Search
      allowClear
      className={mobile ? 'bo-search-mobile' : 'bo-search-desktop'}
      placeholder={t(`search.${what}`)}
      defaultValue={params.get('search') ?? ''}
      data-testid="search-bar"
      onSearch={(v) => set({ search: v.trim() })}
    />
  );
}

function WithSidebar({ search }: { search: boolean }) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(false);
  // One tree for both variants, the page at the same place in it: crossing the breakpoint
  // (a window resized, a phone turned) swaps the sidebar for a drawer and keeps the page,
  // half-filled forms and all.
  return (
    <Layout className={mobile ? 'bo-layout bo-mobile' : 'bo-layout'} data-layout={`${search ? 'search-bar' : 'default'}-${mobile ? 'mobile' : 'desktop'}`}>
      <Header onMenu={mobile ? () => setOpen(true) : undefined}>{search && !mobile ? <SearchBar mobile={false} /> : null}</Header>
      {search && mobile ? (
        <div className="bo-mobile-search">
          <SearchBar mobile />
        </div>
      ) : null}
      {mobile ? (
        <Drawer open={open} onClose={() => setOpen(false)} placement="left" width={280}>
          <Sidebar mobile onNavigate={() => setOpen(false)} />
        </Drawer>
      ) : null}
      <Layout>
        {mobile ? null : (
          <Layout.Sider width={240} theme="light" className="bo-sider">
            <Sidebar />
          </Layout.Sider>
        )}
        <Layout.Content className="bo-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

export function DefaultLayout() {
  return <WithSidebar search={false} />;
}

export function SearchBarLayout() {
  return <WithSidebar search />;
}

export function NoSidebarLayout() {
  const mobile = useIsMobile();
  return (
    <Layout className="bo-layout" data-layout={mobile ? 'no-sidebar-mobile' : 'no-sidebar-desktop'}>
      <Header />
      <Layout.Content className="bo-content bo-content-narrow">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
