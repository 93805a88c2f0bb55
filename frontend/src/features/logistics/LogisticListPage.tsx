import { useState } from 'react';
import { Alert, Button, Card, Dropdown, Empty, Select, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import { DeleteOutlined, DownOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { useListWarehousesQuery } from '@/features/stock/api';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useCan } from '@/shared/useCan';
import {
  LOGISTIC_EDIT,
  useCatalogueQuery,
  useDeleteInterChannelMutation,
  useDeleteLogisticChannelMutation,
  useListLogisticChannelsQuery,
  useListStoreProvidersQuery,
  useListTrackingRangesQuery,
  useSetStatusByProviderMutation,
  useUpdateInterChannelMutation,
  useUpdateLogisticChannelMutation,
  type CodProvider,
  type LogisticChannel,
} from './api';
import { CodAccountModal, type CodAccountTarget } from './CodAccountModal';
import { carrierName, createPath, priceSummary, tabOf, type LogisticTab, type ShipmentType } from './logistics';
import { ParcelQuote } from './ParcelQuote';
import { notifyRefusal } from '@/shared/refusal';
import { TrackingRanges } from './TrackingRanges';

/** /setting/logistic (SPEC §2 Settings): the shipping channels of one warehouse at a time
 * (`?warehouse=`), domestic and international on their tabs, the store's COD accounts on a
 * third and its tracking-number ranges on a fourth (`?tab=`). Channels are switched on and
 * off, edited and deleted here; a provider's channels can be switched together; COD accounts
 * are added and changed in a dialog. */
export default function LogisticListPage() {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const canEdit = useCan(LOGISTIC_EDIT);
  const { data: warehouses, isFetching: loadingWarehouses } = useListWarehousesQuery();
  const asked = Number(params.get('warehouse')) || undefined;
  const warehouseId = asked ?? warehouses?.data.find((w) => w.isDefault)?.id ?? warehouses?.data[0]?.id;
  const channels = useListLogisticChannelsQuery({ warehouseId }, { skip: warehouseId === undefined });
  const { data: carriers } = useCatalogueQuery({});
  const cod = useListStoreProvidersQuery();
  const ranges = useListTrackingRangesQuery({});
  const [codTarget, setCodTarget] = useState<CodAccountTarget | null>(null);

  const go = (next: { tab?: LogisticTab; warehouse?: number }) => {
    const q = new URLSearchParams({ tab: next.tab ?? tab });
    const w = next.warehouse ?? warehouseId;
    if (w) q.set('warehouse', String(w));
    setParams(q, { replace: true });
  };

  const rows = channels.data?.data ?? [];
  const of = (type: ShipmentType) => rows.filter((c) => (type === 'international' ? c.international : !c.international));
  const codCarriers = (carriers?.data ?? []).filter((c) => c.cod);
  const missingCod = codCarriers.filter((c) => !(cod.data?.data ?? []).some((a) => a.providerName === c.providerName));

  const label = (key: LogisticTab, count: number | undefined) => (
    <span data-testid={`logistic-tab-${key}`}>
      {t(`logistics:tabs.${key}`)}
      {count !== undefined ? <Typography.Text type="secondary">{` (${count})`}</Typography.Text> : null}
    </span>
  );

  return (
    <Card data-testid="logistic-list">
      <div className="bo-page-head">
        <h1>{t('logistics:page.title')}</h1>
        <Space wrap>
          <Typography.Text type="secondary">{t('logistics:fields.warehouse')}</Typography.Text>
          <Select
            value={warehouseId}
            loading={loadingWarehouses}
            onChange={(w: number) => go({ warehouse: w })}
            options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
            style={{ minWidth: 200 }}
            data-testid="logistic-warehouse"
          />
        </Space>
      </div>
      <Typography.Paragraph type="secondary">{t('logistics:page.hint')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => go({ tab: k as LogisticTab })}
        items={[
          {
            key: 'domestic',
            label: label('domestic', channels.data ? of('domestic').length : undefined),
            children: <ChannelTable type="domestic" storeId={id} warehouseId={warehouseId} rows={of('domestic')} loading={channels.isFetching} canEdit={canEdit} codMissing={cod.data?.total === 0 ? codCarriers.map((c) => carrierName(c, c.providerName, i18n.language)).join(', ') : ''} onCod={() => go({ tab: 'cod' })} />,
          },
          {
            key: 'international',
            label: label('international', channels.data ? of('international').length : undefined),
            children: <ChannelTable type="international" storeId={id} warehouseId={warehouseId} rows={of('international')} loading={channels.isFetching} canEdit={canEdit} />,
          },
          {
            key: 'cod',
            label: label('cod', cod.data?.total),
            children: (
              <CodTable
                rows={cod.data?.data ?? []}
                loading={cod.isFetching}
                canEdit={canEdit}
                canAdd={missingCod.length > 0}
                onAdd={() => setCodTarget({ provider: missingCod.length === 1 ? missingCod[0].providerName : undefined })}
                onEdit={(p) => setCodTarget({ editing: p })}
              />
            ),
          },
          {
            key: 'tracking',
            label: label('tracking', ranges.data?.total),
            children: <TrackingRanges rows={ranges.data?.data ?? []} loading={ranges.isFetching} carriers={carriers?.data ?? []} canEdit={canEdit} />,
          },
        ]}
      />
      {tab === 'domestic' || tab === 'international' ? <ParcelQuote warehouseId={warehouseId} /> : null}
      <CodAccountModal target={codTarget} onClose={() => setCodTarget(null)} />
    </Card>
  );
}

function ChannelTable({
  type,
  storeId,
  warehouseId,
  rows,
  loading,
  canEdit,
  codMissing,
  onCod,
}: {
  type: ShipmentType;
  storeId: number;
  warehouseId: number | undefined;
  rows: LogisticChannel[];
  loading: boolean;
  canEdit: boolean;
  /** While the store has no COD account: the COD providers, named. */
  codMissing?: string;
  onCod?: () => void;
}) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const navigate = useNavigate();
  const [setStatus] = useUpdateLogisticChannelMutation();
  const [setInterStatus] = useUpdateInterChannelMutation();
  const [remove] = useDeleteLogisticChannelMutation();
  const [removeInter] = useDeleteInterChannelMutation();
  const [setProvider, { isLoading: settingProvider }] = useSetStatusByProviderMutation();
  const [switching, setSwitching] = useState<number | null>(null);
  const name = (c: LogisticChannel) => carrierName(c.provider, c.providerName, i18n.language);
  const tr = (key: string, values?: Record<string, string | number>) => t(key, values);

  const onStatus = async (c: LogisticChannel, on: boolean) => {
    const status = on ? 'active' : 'inactive';
    setSwitching(c.id);
    try {
      if (c.international) await setInterStatus({ providerName: c.providerName, warehouseId: c.warehouseId, logisticChannelInput: { status } }).unwrap();
      else await setStatus({ id: c.id, logisticChannelInput: { status } }).unwrap();
      notifySuccess(t(on ? 'logistics:list.turnedOn' : 'logistics:list.turnedOff', { name: c.name }));
    } catch (e) {
      notifyRefusal(e, t, 'logistics');
    } finally {
      setSwitching(null);
    }
  };

  const onDelete = async (c: LogisticChannel) => {
    const ok = await showDialog({ kind: 'warning', title: 'logistics:list.deleteTitle', message: 'logistics:list.deleteMessage', values: { name: c.name }, confirm: 'common:actions.delete' });
    if (!ok) return;
    try {
      if (c.international) await removeInter({ providerName: c.providerName, warehouseId: c.warehouseId }).unwrap();
      else await remove({ id: c.id }).unwrap();
      notifySuccess(t('logistics:list.deleted'));
    } catch (e) {
      notifyRefusal(e, t, 'logistics');
    }
  };

  const onProvider = async (key: string) => {
    const [providerName, state] = key.split(':');
    try {
      const r = await setProvider({ providerName, logisticStatusInput: { status: state === 'on' ? 'active' : 'inactive' } }).unwrap();
      const carrier = rows.find((c) => c.providerName === providerName);
      notifySuccess(t(state === 'on' ? 'logistics:list.providerOn' : 'logistics:list.providerOff', { count: r.changed, name: carrier ? name(carrier) : providerName }));
    } catch (e) {
      notifyRefusal(e, t, 'logistics');
    }
  };

  const providers = [...new Map(rows.map((c) => [c.providerName, c])).values()];

  const columns = [
    {
      title: t('logistics:fields.name'),
      key: 'name',
      render: (_: unknown, c: LogisticChannel) => <Typography.Text strong>{c.name}</Typography.Text>,
    },
    {
      title: t('logistics:fields.provider'),
      key: 'provider',
      render: (_: unknown, c: LogisticChannel) => <span style={{ whiteSpace: 'nowrap' }}>{name(c)}</span>,
    },
    {
      title: t('logistics:fields.price'),
      key: 'price',
      render: (_: unknown, c: LogisticChannel) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text type="secondary">{t(`logistics:methods.${c.pricingMethod}`, { defaultValue: c.pricingMethod })}</Typography.Text>
          <span>{priceSummary(c, tr)}</span>
        </Space>
      ),
    },
    ...(type === 'domestic'
      ? [
          {
            title: t('logistics:fields.codShort'),
            key: 'cod',
            render: (_: unknown, c: LogisticChannel) => (c.cod ? <Tag color="gold">{t('logistics:list.codOn')}</Tag> : <Typography.Text type="secondary">{t('logistics:list.codOff')}</Typography.Text>),
          },
        ]
      : []),
    {
      title: t('logistics:fields.status'),
      key: 'status',
      width: 130,
      render: (_: unknown, c: LogisticChannel) => (
        <Space size={6} wrap={false}>
          <Switch
            checked={c.status === 'active'}
            disabled={!canEdit}
            loading={switching === c.id}
            onChange={(on) => void onStatus(c, on)}
            aria-label={t('logistics:fields.status')}
            data-testid={`channel-${c.id}-status`}
          />
          <Typography.Text type={c.status === 'active' ? undefined : 'secondary'}>{t(`logistics:status.${c.status}`, { defaultValue: c.status })}</Typography.Text>
        </Space>
      ),
    },
    ...(canEdit
      ? [
          {
            title: t('logistics:fields.actions'),
            key: 'actions',
            align: 'right' as const,
            width: 190,
            render: (_: unknown, c: LogisticChannel) => (
              <Space size={4} wrap={false}>
                <Button size="small" icon={<EditOutlined />} onClick={() => navigate(`/${storeId}/setting/logistic-edit/${c.id}`)} data-testid={`channel-${c.id}-edit`}>
                  {t('common:actions.edit')}
                </Button>
                <Button size="small" danger icon={<DeleteOutlined />} onClick={() => void onDelete(c)} data-testid={`channel-${c.id}-delete`}>
                  {t('common:actions.delete')}
                </Button>
              </Space>
            ),
          },
        ]
      : []),
  ];

  const add = () => navigate(createPath(storeId, type, warehouseId));

  return (
    <>
      <div className="bo-page-head">
        <Typography.Text type="secondary">{t(`logistics:hints.${type}`)}</Typography.Text>
        {canEdit ? (
          <Space wrap>
            {providers.length > 0 ? (
              <Dropdown
                menu={{
                  items: providers.map((c) => ({
                    key: c.providerName,
                    label: name(c),
                    children: [
                      { key: `${c.providerName}:on`, label: t('logistics:list.allOn') },
                      { key: `${c.providerName}:off`, label: t('logistics:list.allOff') },
                    ],
                  })),
                  onClick: ({ key }) => void onProvider(key),
                }}
              >
                <Button loading={settingProvider} data-testid={`provider-status-${type}`}>
                  {t('logistics:list.providerStatus')} <DownOutlined />
                </Button>
              </Dropdown>
            ) : null}
            <Button type="primary" icon={<PlusOutlined />} onClick={add} disabled={!warehouseId} data-testid={`channel-create-${type}`}>
              {t(`logistics:add.${type}`)}
            </Button>
          </Space>
        ) : null}
      </div>
      {type === 'domestic' && codMissing && onCod ? (
        <Alert
          type="info"
          showIcon
          title={t('logistics:cod.needAccount', { names: codMissing })}
          action={
            <Button size="small" onClick={onCod} data-testid="goto-cod">
              {t('logistics:cod.manage')}
            </Button>
          }
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Table<LogisticChannel>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{
          emptyText: (
            <Empty description={t(`logistics:empty.${type}`)} data-testid={`channel-empty-${type}`}>
              {canEdit && warehouseId ? (
                <Button type="primary" icon={<PlusOutlined />} onClick={add}>
                  {t(`logistics:add.${type}`)}
                </Button>
              ) : null}
            </Empty>
          ),
        }}
        scroll={{ x: 820 }}
        data-testid={`channel-table-${type}`}
      />
    </>
  );
}

function CodTable({
  rows,
  loading,
  canEdit,
  canAdd,
  onAdd,
  onEdit,
}: {
  rows: CodProvider[];
  loading: boolean;
  canEdit: boolean;
  canAdd: boolean;
  onAdd: () => void;
  onEdit: (p: CodProvider) => void;
}) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const columns = [
    { title: t('logistics:fields.provider'), key: 'provider', render: (_: unknown, p: CodProvider) => carrierName(p.provider, p.providerName, i18n.language) },
    { title: t('logistics:fields.codAccountNo'), key: 'no', render: (_: unknown, p: CodProvider) => <span style={{ whiteSpace: 'nowrap' }}>{p.codAccountNo}</span> },
    { title: t('logistics:fields.updatedAt'), key: 'updatedAt', render: (_: unknown, p: CodProvider) => formatDateTime(p.updatedAt, i18n.language) },
    ...(canEdit
      ? [
          {
            title: t('logistics:fields.actions'),
            key: 'actions',
            align: 'right' as const,
            render: (_: unknown, p: CodProvider) => (
              <Button size="small" icon={<EditOutlined />} onClick={() => onEdit(p)} data-testid={`cod-${p.id}-edit`}>
                {t('common:actions.edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <div className="bo-page-head">
        <Typography.Text type="secondary">{t('logistics:hints.cod')}</Typography.Text>
        {canEdit ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={onAdd} disabled={!canAdd} data-testid="cod-create">
            {t('logistics:cod.create')}
          </Button>
        ) : null}
      </div>
      <Table<CodProvider>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('logistics:cod.empty') }}
        scroll={{ x: 560 }}
        data-testid="cod-table"
      />
    </>
  );
}
