import { Menu } from 'antd';
import { AppstoreOutlined, DatabaseOutlined, FileTextOutlined, SettingOutlined, ShoppingOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';

import { useAppSelector } from '../hooks';
import { MENU, SETTINGS, visibleEntries, visibleMenu } from '../menu';

const ICONS: Record<string, React.ReactNode> = {
  overviews: <AppstoreOutlined />,
  orders: <FileTextOutlined />,
  products: <ShoppingOutlined />,
  stock: <DatabaseOutlined />,
  customers: <TeamOutlined />,
  settings: <SettingOutlined />,
};

/** Desktop: groups in SPEC order, Setting last. Mobile: the same, with settings as the submenu of
 * the available settings screens. */
export function Sidebar({ mobile, onNavigate }: { mobile?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('common');
  const { storeId } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const login = useAppSelector((s) => (storeId ? s.session.stores[storeId] : undefined));
  const hiding = useAppSelector((s) => s.store.menuHidingList) ?? [];
  if (!storeId || !login) return null;
  const viewer = { permission: login.permission, permissions: login.permissions };
  const groups = visibleMenu(mobile ? MENU.filter((g) => g.key !== 'settings') : MENU, viewer, hiding);
  const settings = mobile ? visibleEntries(SETTINGS, viewer, hiding) : [];
  const items = groups.map((g) => ({
    key: g.key,
    icon: ICONS[g.key],
    label: t(g.label),
    children: g.items.map((e) => ({ key: `/${storeId}/${e.path}`, label: t(e.label) })),
  }));
  if (settings.length > 0) {
    items.push({
      key: 'settings',
      icon: <SettingOutlined />,
      label: t('menu.settings'),
      children: settings.map((e) => ({ key: `/${storeId}/${e.path}`, label: t(e.label) })),
    });
  }
  // The longest match: /setting/unit-of-measurement-create is not /setting/unit-of-measurement.
  const selected = items
    .flatMap((g) => g.children.map((c) => c.key))
    .filter((k) => location.pathname.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return (
    <Menu
      mode="inline"
      data-testid="sidebar"
      items={items}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={groups.map((g) => g.key)}
      onClick={({ key }) => {
        navigate(key);
        onNavigate?.();
      }}
    />
  );
}
