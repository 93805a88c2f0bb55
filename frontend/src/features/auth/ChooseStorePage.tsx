import { Button, Card, Empty, List, Tag, Typography } from 'antd';
import { ShopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';

import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { storeEntered } from '@/app/session';
import { useListUserStoresQuery, useStoreTokenMutation } from './api';

/** Only a path inside the chosen store may be resumed after choosing it. */
export function resumePath(next: string | null, storeId: number): string {
  if (next && next.startsWith(`/${storeId}/`)) return next;
  return `/${storeId}/getting-start`;
}

export default function ChooseStorePage() {
  const { t } = useTranslation(['auth', 'common']);
  const user = useAppSelector((s) => s.session.user);
  const { data, isLoading } = useListUserStoresQuery({ userId: user?.id ?? 0, limit: -1 }, { skip: !user });
  const [storeToken, { isLoading: entering, originalArgs }] = useStoreTokenMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();

  const enter = async (storeId: number) => {
    const r = await storeToken({ storeTokenInput: { id: storeId } }).unwrap();
    dispatch(
      storeEntered({
        storeId,
        login: { token: r.token, permission: r.permission, permissions: r.role.permissions, roleName: r.role.name, expiresAt: r.expiresAt },
      }),
    );
    navigate(resumePath(params.get('next'), storeId));
  };

  const stores = (data?.data ?? []).filter((m) => m.status === 'active');
  return (
    <Card title={<Typography.Title level={3} style={{ margin: 0 }}>{t('auth:chooseStore.title')}</Typography.Title>}>
      <Typography.Paragraph type="secondary">{t('auth:chooseStore.subtitle', { name: user?.name || user?.email })}</Typography.Paragraph>
      <List
        loading={isLoading}
        dataSource={stores}
        locale={{ emptyText: <Empty description={t('auth:chooseStore.empty')} /> }}
        renderItem={(m) => (
          <List.Item
            data-testid={`store-${m.store.id}`}
            actions={[
              <Button
                key="enter"
                type="primary"
                loading={entering && originalArgs?.storeTokenInput.id === m.store.id}
                onClick={() => void enter(m.store.id).catch(() => undefined)}
              >
                {t('auth:chooseStore.enter')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              avatar={<ShopOutlined style={{ fontSize: 24, color: '#0b2545' }} />}
              title={m.store.name}
              description={<Tag>{t(`common:permission.${m.permission}`)}</Tag>}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
