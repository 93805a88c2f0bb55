import { useState } from 'react';
import { Alert, Button, Card, Dropdown, Empty, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { ApiOutlined, DisconnectOutlined, DownOutlined, LinkOutlined, PlusOutlined, ReloadOutlined, SettingOutlined, ShopOutlined, WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { useListWarehousesQuery } from '@/features/stock/api';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { notifyRefusal } from '@/shared/refusal';
import { useCan } from '@/shared/useCan';
import {
  SALE_CHANNELS,
  useListApiChannelsQuery,
  useListMagentoChannelsQuery,
  useLazyAuthUrlQuery,
  useListMarketplaceChannelsQuery,
  useListOwnChannelsQuery,
  useMarketplacesQuery,
  useUnlinkMarketplaceChannelMutation,
  useUpdateMarketplaceChannelMutation,
  useUpdateOwnChannelMutation,
  type ApiChannelBody,
  type MagentoChannelBody,
  type MarketplaceBody,
  type MarketplaceShop,
  type OwnChannelBody,
} from './api';
import { OWN_KINDS, ago, endsSoon, pathOf } from './marketplaces';

/** /sale-channel-list (SPEC §2 Sale channels, owner only): each marketplace with its connect
 * button and its connected shops (name, status, warehouse, last order sync and stock push,
 * when the authorization ends, a red mark when the connection is lost), to turn on or off,
 * set up, or connect again. A marketplace this installation has no app keys for says which
 * settings the operator must set. Then the store's Magento shops (status, last poll, orders
 * taken and what went wrong), its own channels (its social networks and website, with the
 * defaults their orders take) and its open-API channels. */
export default function SaleChannelListPage() {
  const { t, i18n } = useTranslation(['marketplaces', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const navigate = useNavigate();
  const marketplaces = useMarketplacesQuery();
  const shops = useListMarketplaceChannelsQuery({});
  const warehouses = useListWarehousesQuery();
  const apiChannels = useListApiChannelsQuery();
  const ownChannels = useListOwnChannelsQuery({});
  const magentoChannels = useListMagentoChannelsQuery();
  const canManage = useCan(SALE_CHANNELS);
  const [updateOwn] = useUpdateOwnChannelMutation();
  const webhooksOff = (apiChannels.data?.data ?? []).filter((c) => c.webhookDisabledAt);
  const [askLink] = useLazyAuthUrlQuery();
  const [update] = useUpdateMarketplaceChannelMutation();
  const [unlink] = useUnlinkMarketplaceChannelMutation();
  const [busy, setBusy] = useState<string | null>(null);
  // When the page opened: authorizations ending within 7 days of it are marked.
  const [now] = useState(() => Date.now());

  const warehouseName = (wid: number) => (wid ? (warehouses.data?.data.find((w) => w.id === wid)?.name ?? `#${wid}`) : '');

  const go = async (m: MarketplaceBody, shop?: MarketplaceShop) => {
    const key = shop ? `shop-${shop.id}` : m.path;
    setBusy(key);
    try {
      const link = await askLink({ mp: m.path, storeChannelId: shop?.id }).unwrap();
      window.location.assign(link.url);
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces', { fallback: 'marketplaces:errors.connect_failed' });
      setBusy(null);
    }
  };

  const onStatus = async (shop: MarketplaceShop, on: boolean) => {
    setBusy(`status-${shop.id}`);
    try {
      await update({ id: shop.id, marketplaceChannelInput: { status: on ? 'active' : 'inactive' } }).unwrap();
      notifySuccess(t(on ? 'marketplaces:list.turnedOn' : 'marketplaces:list.turnedOff', { name: shop.shopName }));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    } finally {
      setBusy(null);
    }
  };

  const onUnlink = async (shop: MarketplaceShop) => {
    const ok = await showDialog({ kind: 'warning', title: 'marketplaces:list.unlinkTitle', message: 'marketplaces:list.unlinkMessage', values: { name: shop.shopName }, confirm: 'marketplaces:list.unlink' });
    if (!ok) return;
    setBusy(`unlink-${shop.id}`);
    try {
      await unlink({ id: shop.id }).unwrap();
      notifySuccess(t('marketplaces:list.unlinked', { name: shop.shopName }));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    } finally {
      setBusy(null);
    }
  };

  const onOwnStatus = async (c: OwnChannelBody, on: boolean) => {
    setBusy(`own-${c.id}`);
    try {
      const { name, channel, warehouseId, logisticChannelId, paymentChannelId, version } = c;
      await updateOwn({ id: c.id, ownChannelInput: { name, channel, warehouseId, logisticChannelId, paymentChannelId, version, status: on ? 'active' : 'inactive' } }).unwrap();
      notifySuccess(t(on ? 'marketplaces:list.turnedOn' : 'marketplaces:list.turnedOff', { name: c.name }));
    } catch (e) {
      notifyRefusal(e, t, 'marketplaces');
    } finally {
      setBusy(null);
    }
  };
  const channelName = (code: string) => t(`marketplaces:api.channels.${code}`, { defaultValue: code });

  const columns = (m: MarketplaceBody) => [
    {
      title: t('marketplaces:fields.shop'),
      key: 'shop',
      render: (_: unknown, s: MarketplaceShop) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{s.shopName}</Typography.Text>
          <Typography.Text type="secondary">{t('marketplaces:fields.shopId', { id: s.shopId })}</Typography.Text>
          {s.isTokenExpire ? (
            <Tag color="red" icon={<WarningFilled />} data-testid={`shop-${s.id}-lost`}>
              {t('marketplaces:list.connectionLost')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('marketplaces:fields.status'),
      key: 'status',
      width: 130,
      render: (_: unknown, s: MarketplaceShop) => (
        <Space size={6} wrap={false}>
          <Switch
            checked={s.status === 'active'}
            loading={busy === `status-${s.id}`}
            onChange={(on) => void onStatus(s, on)}
            aria-label={t('marketplaces:fields.status')}
            data-testid={`shop-${s.id}-status`}
          />
          <Typography.Text type={s.status === 'active' ? undefined : 'secondary'}>{t(`marketplaces:status.${s.status}`, { defaultValue: s.status })}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('marketplaces:fields.warehouse'),
      key: 'warehouse',
      render: (_: unknown, s: MarketplaceShop) =>
        s.warehouseId ? warehouseName(s.warehouseId) : <Typography.Text type="warning">{t('marketplaces:list.notSetUp')}</Typography.Text>,
    },
    {
      title: t('marketplaces:fields.lastOrderSync'),
      key: 'sync',
      render: (_: unknown, s: MarketplaceShop) => ago(s.lastOrderSyncAt, i18n.language) || <Typography.Text type="secondary">{t('marketplaces:list.never')}</Typography.Text>,
    },
    {
      title: t('marketplaces:fields.lastStockPush'),
      key: 'push',
      render: (_: unknown, s: MarketplaceShop) => ago(s.lastStockPushAt, i18n.language) || <Typography.Text type="secondary">{t('marketplaces:list.never')}</Typography.Text>,
    },
    {
      title: t('marketplaces:fields.tokenExpireAt'),
      key: 'expiry',
      render: (_: unknown, s: MarketplaceShop) => (
        <Typography.Text type={s.isTokenExpire || endsSoon(s.tokenExpireAt, now) ? 'danger' : undefined} data-testid={`shop-${s.id}-expiry`}>
          {formatDateTime(s.tokenExpireAt, i18n.language)}
        </Typography.Text>
      ),
    },
    {
      title: t('marketplaces:fields.actions'),
      key: 'actions',
      align: 'right' as const,
      render: (_: unknown, s: MarketplaceShop) => (
        <Space size={4} wrap={false}>
          <Button size="small" icon={<SettingOutlined />} onClick={() => navigate(`/${id}/sale-channel-setting/${m.path}/${s.id}`)} data-testid={`shop-${s.id}-setting`}>
            {t('marketplaces:list.setting')}
          </Button>
          <Button
            size="small"
            type={s.isTokenExpire ? 'primary' : 'default'}
            danger={s.isTokenExpire}
            icon={<ReloadOutlined />}
            loading={busy === `shop-${s.id}`}
            disabled={!m.configured || !m.allowed}
            onClick={() => void go(m, s)}
            data-testid={`shop-${s.id}-reconnect`}
          >
            {t('marketplaces:list.reconnect')}
          </Button>
          <Tooltip title={t('marketplaces:list.unlink')}>
            <Button
              size="small"
              danger
              icon={<DisconnectOutlined />}
              aria-label={t('marketplaces:list.unlink')}
              loading={busy === `unlink-${s.id}`}
              onClick={() => void onUnlink(s)}
              data-testid={`shop-${s.id}-unlink`}
            />
          </Tooltip>
        </Space>
      ),
    },
  ];

  const lost = (shops.data?.data ?? []).filter((s) => s.isTokenExpire);

  return (
    <Card data-testid="sale-channel-list">
      <div className="bo-page-head">
        <h1>{t('marketplaces:page.title')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('marketplaces:page.hint')}</Typography.Paragraph>
      {lost.length > 0 ? (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('marketplaces:list.lostBanner', { count: lost.length })} data-testid="sale-channel-lost" />
      ) : null}
      <Space orientation="vertical" size={24} style={{ width: '100%' }}>
        {(marketplaces.data?.data ?? []).map((m) => {
          const mine = (shops.data?.data ?? []).filter((s) => pathOf(s.marketplace) === m.path);
          return (
            <section key={m.path} data-testid={`marketplace-${m.path}`}>
              <div className="bo-page-head">
                <h2 style={{ margin: 0 }}>{m.name}</h2>
                {m.configured && m.allowed ? (
                  <Button type="primary" icon={<LinkOutlined />} loading={busy === m.path} onClick={() => void go(m)} data-testid={`connect-${m.path}`}>
                    {t('marketplaces:list.connect')}
                  </Button>
                ) : (
                  <Tooltip
                    title={m.configured ? t('marketplaces:list.notAllowed', { name: m.name }) : t('marketplaces:list.missingSettings', { settings: m.missingSettings.join(', ') })}
                  >
                    <Button icon={<LinkOutlined />} disabled data-testid={`connect-${m.path}`}>
                      {t('marketplaces:list.connect')}
                    </Button>
                  </Tooltip>
                )}
              </div>
              {m.configured && !m.allowed ? (
                <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('marketplaces:list.notAllowed', { name: m.name })} data-testid={`not-allowed-${m.path}`} />
              ) : null}
              {m.configured ? null : (
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 12 }}
                  title={t('marketplaces:list.notConfigured', { name: m.name })}
                  description={m.missingSettings.join(', ')}
                  data-testid={`not-configured-${m.path}`}
                />
              )}
              <Table<MarketplaceShop>
                rowKey="id"
                size="middle"
                loading={shops.isFetching}
                columns={columns(m)}
                dataSource={mine}
                pagination={false}
                scroll={{ x: 960 }}
                locale={{ emptyText: <Empty description={t('marketplaces:list.empty', { name: m.name })} /> }}
                data-testid={`shops-${m.path}`}
              />
            </section>
          );
        })}
        <section data-testid="magento-channels">
          <div className="bo-page-head">
            <h2 style={{ margin: 0 }}>{t('marketplaces:magento.listTitle')}</h2>
            {canManage ? (
              <Button type="primary" icon={<ShopOutlined />} onClick={() => navigate(`/${id}/sale-channel-setting/magento/create`)} data-testid="magento-create">
                {t('marketplaces:magento.create')}
              </Button>
            ) : null}
          </div>
          <Typography.Paragraph type="secondary">{t('marketplaces:magento.listHint')}</Typography.Paragraph>
          <Table<MagentoChannelBody>
            rowKey="id"
            size="middle"
            loading={magentoChannels.isFetching}
            dataSource={magentoChannels.data?.data ?? []}
            pagination={false}
            scroll={{ x: 900 }}
            locale={{ emptyText: <Empty description={t('marketplaces:magento.empty')} /> }}
            columns={[
              {
                title: t('marketplaces:magento.fields.name'),
                key: 'name',
                render: (_: unknown, c: MagentoChannelBody) => (
                  <Space orientation="vertical" size={0}>
                    <Typography.Text strong>{c.name}</Typography.Text>
                    <Typography.Text type="secondary">{c.url}</Typography.Text>
                  </Space>
                ),
              },
              {
                title: t('marketplaces:fields.status'),
                dataIndex: 'status',
                render: (v: string, c: MagentoChannelBody) => (
                  <Tag color={v === 'active' ? 'green' : 'default'} data-testid={`magento-${c.id}-status`}>
                    {t(`marketplaces:status.${v}`, { defaultValue: v })}
                  </Tag>
                ),
              },
              { title: t('marketplaces:fields.warehouse'), key: 'warehouse', render: (_: unknown, c: MagentoChannelBody) => warehouseName(c.warehouseId) },
              {
                title: t('marketplaces:magento.fields.lastPolledAt'),
                key: 'polled',
                render: (_: unknown, c: MagentoChannelBody) => (
                  <span data-testid={`magento-${c.id}-polled`}>{ago(c.lastPolledAt, i18n.language) || <Typography.Text type="secondary">{t('marketplaces:list.never')}</Typography.Text>}</span>
                ),
              },
              { title: t('marketplaces:magento.fields.ordersTaken'), dataIndex: 'ordersTaken', align: 'right' as const },
              {
                title: t('marketplaces:magento.fields.problems'),
                key: 'problems',
                render: (_: unknown, c: MagentoChannelBody) => (
                  <Space orientation="vertical" size={2}>
                    {c.pollError ? (
                      <Typography.Text type="danger" data-testid={`magento-${c.id}-poll-error`}>
                        <WarningFilled /> {t('marketplaces:magento.list.pollError', { error: c.pollError })}
                      </Typography.Text>
                    ) : null}
                    {c.stockError ? (
                      <Typography.Text type="warning" data-testid={`magento-${c.id}-stock-error`}>
                        <WarningFilled /> {t('marketplaces:magento.list.stockError', { error: c.stockError })}
                      </Typography.Text>
                    ) : null}
                  </Space>
                ),
              },
              ...(canManage
                ? [
                    {
                      title: t('marketplaces:fields.actions'),
                      key: 'actions',
                      align: 'right' as const,
                      render: (_: unknown, c: MagentoChannelBody) => (
                        <Button size="small" icon={<SettingOutlined />} onClick={() => navigate(`/${id}/sale-channel-setting/magento/edit/${c.id}`)} data-testid={`magento-${c.id}-edit`}>
                          {t('marketplaces:list.setting')}
                        </Button>
                      ),
                    },
                  ]
                : []),
            ]}
            data-testid="magento-channels-table"
          />
        </section>
        <section data-testid="own-channels">
          <div className="bo-page-head">
            <h2 style={{ margin: 0 }}>{t('marketplaces:own.listTitle')}</h2>
            <Dropdown
              trigger={['click']}
              menu={{
                items: OWN_KINDS.map((k) => ({ key: k, label: <span data-testid={`own-create-${k}`}>{t('marketplaces:own.createFor', { channel: channelName(k) })}</span> })),
                onClick: ({ key }) => navigate(`/${id}/sale-channel-setting/${key}`),
              }}
            >
              <Button type="primary" icon={<PlusOutlined />} data-testid="own-create">
                {t('marketplaces:own.create')} <DownOutlined />
              </Button>
            </Dropdown>
          </div>
          <Typography.Paragraph type="secondary">{t('marketplaces:own.listHint')}</Typography.Paragraph>
          <Table<OwnChannelBody>
            rowKey="id"
            size="middle"
            loading={ownChannels.isFetching}
            dataSource={ownChannels.data?.data ?? []}
            pagination={false}
            scroll={{ x: 800 }}
            locale={{ emptyText: <Empty description={t('marketplaces:own.empty')} /> }}
            columns={[
              { title: t('marketplaces:own.fields.name'), dataIndex: 'name', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
              { title: t('marketplaces:own.fields.channel'), dataIndex: 'channel', render: (v: string) => channelName(v) },
              {
                title: t('marketplaces:fields.status'),
                dataIndex: 'status',
                render: (v: string, c: OwnChannelBody) => (
                  <Space size={6} wrap={false}>
                    <Switch checked={v === 'active'} loading={busy === `own-${c.id}`} onChange={(on) => void onOwnStatus(c, on)} aria-label={t('marketplaces:fields.status')} data-testid={`own-${c.id}-status`} />
                    <Typography.Text type={v === 'active' ? undefined : 'secondary'}>{t(`marketplaces:status.${v}`, { defaultValue: v })}</Typography.Text>
                  </Space>
                ),
              },
              { title: t('marketplaces:fields.warehouse'), key: 'warehouse', render: (_: unknown, c: OwnChannelBody) => warehouseName(c.warehouseId) },
              { title: t('marketplaces:api.fields.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v, i18n.language) },
              {
                title: t('marketplaces:fields.actions'),
                key: 'actions',
                align: 'right' as const,
                render: (_: unknown, c: OwnChannelBody) => (
                  <Button size="small" icon={<SettingOutlined />} onClick={() => navigate(`/${id}/sale-channel-setting/${c.channel}/${c.id}`)} data-testid={`own-${c.id}-edit`}>
                    {t('marketplaces:list.setting')}
                  </Button>
                ),
              },
            ]}
            data-testid="own-channels-table"
          />
        </section>
        <section data-testid="open-api-channels">
          <div className="bo-page-head">
            <h2 style={{ margin: 0 }}>{t('marketplaces:api.listTitle')}</h2>
            <Button type="primary" icon={<ApiOutlined />} onClick={() => navigate(`/${id}/sale-channel-setting/open-api/open_api/create`)} data-testid="api-create">
              {t('marketplaces:api.create')}
            </Button>
          </div>
          <Typography.Paragraph type="secondary">{t('marketplaces:api.listHint')}</Typography.Paragraph>
          {webhooksOff.length ? (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              title={t('marketplaces:api.webhook.offNotice', { names: webhooksOff.map((c) => c.name).join(', ') })}
              data-testid="api-webhooks-off"
            />
          ) : null}
          <Table<ApiChannelBody>
            rowKey="id"
            size="middle"
            loading={apiChannels.isFetching}
            dataSource={apiChannels.data?.data ?? []}
            pagination={false}
            scroll={{ x: 800 }}
            locale={{ emptyText: <Empty description={t('marketplaces:api.empty')} /> }}
            columns={[
              { title: t('marketplaces:api.fields.name'), dataIndex: 'name', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
              { title: t('marketplaces:api.fields.channel'), dataIndex: 'channel', render: (v: string) => channelName(v) },
              {
                title: t('marketplaces:fields.status'),
                dataIndex: 'status',
                render: (v: string, c: ApiChannelBody) => (
                  <Space size={4} wrap>
                    <Tag color={v === 'active' ? 'green' : 'default'}>{t(`marketplaces:status.${v}`, { defaultValue: v })}</Tag>
                    {c.webhookDisabledAt ? (
                      <Tag color="red" data-testid={`api-${c.id}-webhook-off`}>
                        {t('marketplaces:api.webhook.offTag')}
                      </Tag>
                    ) : c.webhookFailingSince ? (
                      <Tag color="orange" data-testid={`api-${c.id}-webhook-failing`}>
                        {t('marketplaces:api.webhook.failingTag')}
                      </Tag>
                    ) : null}
                  </Space>
                ),
              },
              {
                title: t('marketplaces:api.fields.key'),
                key: 'key',
                render: (_: unknown, c: ApiChannelBody) => {
                  const working = c.keys.filter((k) => k.working);
                  return working.length ? <Typography.Text code>{working[0].shown}</Typography.Text> : <Tag color="red">{t('marketplaces:api.key.none')}</Tag>;
                },
              },
              { title: t('marketplaces:fields.warehouse'), key: 'warehouse', render: (_: unknown, c: ApiChannelBody) => warehouseName(c.warehouseId) },
              { title: t('marketplaces:api.fields.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v, i18n.language) },
              {
                title: t('marketplaces:fields.actions'),
                key: 'actions',
                align: 'right' as const,
                render: (_: unknown, c: ApiChannelBody) => (
                  <Button size="small" icon={<SettingOutlined />} onClick={() => navigate(`/${id}/sale-channel-setting/open-api/${c.channel}/edit/${c.id}`)} data-testid={`api-${c.id}-edit`}>
                    {t('marketplaces:list.setting')}
                  </Button>
                ),
              },
            ]}
            data-testid="api-channels"
          />
        </section>
      </Space>
    </Card>
  );
}
