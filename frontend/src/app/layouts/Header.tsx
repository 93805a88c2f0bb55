import { Button, Dropdown, Space, Typography } from 'antd';
import { GlobalOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

import { useAppDispatch, useAppSelector } from '../hooks';
import { loggedOut } from '../session';
import { storeLeft } from '../storeSlice';
import { setLanguage, type Language } from '@/shared/i18n/i18n';
import { useLogoutMutation } from '@/features/auth/api';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  const next: Language = i18n.language === 'en' ? 'th' : 'en';
  return (
    <Button type="text" icon={<GlobalOutlined />} onClick={() => setLanguage(next)} data-testid="language-switch" aria-label={t('language.switch')}>
      {t(`language.${next}`)}
    </Button>
  );
}

export function UserMenu() {
  const { t } = useTranslation('common');
  const user = useAppSelector((s) => s.session.user);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  if (!user) return null;
  const items = [
    { key: 'choose-store', label: t('user.chooseStore') },
    { key: 'logout', label: t('user.logout'), danger: true },
  ];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        onClick: async ({ key }) => {
          if (key === 'choose-store') navigate('/choose-store');
          if (key === 'logout') {
            await logout().unwrap().catch(() => undefined);
            dispatch(loggedOut());
            dispatch(storeLeft());
            navigate('/login');
          }
        },
      }}
    >
      <Button type="text" icon={<UserOutlined />} data-testid="user-menu" aria-label={user.name || user.email}>
        <span className="bo-user-name">{user.name || user.email}</span>
      </Button>
    </Dropdown>
  );
}

export function Header({ onMenu, children }: { onMenu?: () => void; children?: React.ReactNode }) {
  const { t } = useTranslation('common');
  const store = useAppSelector((s) => s.store.loaded);
  return (
    <header className="bo-header">
      <div className="bo-header-start">
        {onMenu ? <Button type="text" icon={<MenuOutlined />} onClick={onMenu} aria-label={t('menu.open')} data-testid="mobile-menu" /> : null}
        <Typography.Text strong className="bo-brand">
          {store?.name ?? t('appName')}
        </Typography.Text>
      </div>
      <div className="bo-header-middle">{children}</div>
      <Space>
        <LanguageSwitch />
        <UserMenu />
      </Space>
    </header>
  );
}
