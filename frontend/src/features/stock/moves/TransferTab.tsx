import { useState } from 'react';
import { Button, Segmented, Space, Table, Tag, Typography } from 'antd';
import { ArrowRightOutlined, CheckOutlined, FilePdfOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import {
  openPdf,
  useListTransfersQuery,
  useListWarehousesQuery,
  usePickListUrlMutation,
  useReceiveTransferMutation,
  type TransferLineBody,
  type TransferRow,
} from '../api';
import { LotTakes } from '../LotBits';
import { ADJUST_CREATE } from '../routes';
import { notifyRefusal } from '@/shared/refusal';
import { TransferFormModal } from './TransferFormModal';

const STATES = ['', 'in_transit', 'received'] as const;
type StateFilter = (typeof STATES)[number];

/** Transfers between the store's warehouses (SPEC §2, on the moves tab screen): sent units
 * leave the source at once and are in transit until the receiving side confirms them. Each
 * transfer has a pick list (PDF) and, expanded, its lines with the lots they came from. */
export function TransferTab() {
  const { t, i18n } = useTranslation(['stock', 'common']);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const state = (STATES as readonly string[]).includes(params.get('state') ?? '') ? (params.get('state') as StateFilter) : '';
  const { data, isFetching } = useListTransfersQuery({ state: state || undefined, page, limit: 10 });
  const { data: warehouses } = useListWarehousesQuery();
  const canCreate = useCan(ADJUST_CREATE);
  const [receive] = useReceiveTransferMutation();
  const [pickList] = usePickListUrlMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const warehouseName = (id: number) => warehouses?.data.find((w) => w.id === id)?.name ?? String(id);

  const go = (next: { state?: StateFilter; page?: number }) => {
    const q = new URLSearchParams();
    const s = next.state ?? state;
    if (s) q.set('state', s);
    if (next.page && next.page > 1) q.set('page', String(next.page));
    setParams(q);
  };

  const onReceive = async (r: TransferRow) => {
    const ok = await showDialog({
      kind: 'question',
      title: 'stock:transfer.receiveTitle',
      message: 'stock:transfer.receiveMessage',
      values: { code: r.code, count: r.totalQty, to: warehouseName(r.toWarehouseId) },
      confirm: 'stock:transfer.receive',
    });
    if (!ok) return;
    setBusy(`receive-${r.id}`);
    try {
      await receive({ id: r.id }).unwrap();
      notifySuccess(t('stock:transfer.received', { code: r.code }));
    } catch (e) {
      notifyRefusal(e, t, 'stock');
    } finally {
      setBusy(null);
    }
  };

  const onPickList = async (r: TransferRow) => {
    setBusy(`pick-${r.id}`);
    try {
      await openPdf(() => pickList({ id: r.id }).unwrap(), `${r.code}-pick-list.pdf`, t('common:loading'));
    } catch (e) {
      notifyRefusal(e, t, 'stock');
    } finally {
      setBusy(null);
    }
  };

  const person = (name: string, at: string | null | undefined, testId: string) =>
    at ? (
      <Space orientation="vertical" size={0} data-testid={testId}>
        <span>{name || '—'}</span>
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(at, i18n.language)}
        </Typography.Text>
      </Space>
    ) : (
      <Typography.Text type="secondary">—</Typography.Text>
    );

  const columns = [
    {
      title: t('stock:transfer.code'),
      key: 'code',
      render: (_: unknown, r: TransferRow) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
            {r.code}
          </Typography.Text>
          {r.note ? (
            <Typography.Text type="secondary" ellipsis={{ tooltip: r.note }} style={{ maxWidth: 200 }}>
              {r.note}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('stock:transfer.route'),
      key: 'route',
      render: (_: unknown, r: TransferRow) => (
        <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }} data-testid={`transfer-${r.id}-route`}>
          <span>{warehouseName(r.fromWarehouseId)}</span>
          <span>
            <ArrowRightOutlined aria-label={t('stock:transfer.to')} /> {warehouseName(r.toWarehouseId)}
          </span>
        </Space>
      ),
    },
    { title: t('stock:transfer.units'), dataIndex: 'totalQty', align: 'right' as const },
    {
      title: t('stock:transfer.state'),
      key: 'state',
      render: (_: unknown, r: TransferRow) => (
        <Tag color={r.state === 'received' ? 'success' : 'processing'} data-testid={`transfer-${r.id}-state`}>
          {t(`stock:transfer.states.${r.state}`, { defaultValue: r.state })}
        </Tag>
      ),
    },
    { title: t('stock:transfer.sentBy'), key: 'sent', render: (_: unknown, r: TransferRow) => person(r.createdByName, r.createdAt, `transfer-${r.id}-sent`) },
    { title: t('stock:transfer.receivedBy'), key: 'received', render: (_: unknown, r: TransferRow) => person(r.receivedByName, r.receivedAt, `transfer-${r.id}-received`) },
    {
      title: t('stock:fields.actions'),
      key: 'actions',
      align: 'right' as const,
      render: (_: unknown, r: TransferRow) => (
        <Space orientation="vertical" size={4} align="end">
          <Button size="small" icon={<FilePdfOutlined />} loading={busy === `pick-${r.id}`} onClick={() => void onPickList(r)} data-testid={`transfer-${r.id}-pick-list`}>
            {t('stock:transfer.pickList')}
          </Button>
          {canCreate && r.state === 'in_transit' ? (
            <Button size="small" type="primary" icon={<CheckOutlined />} loading={busy === `receive-${r.id}`} onClick={() => void onReceive(r)} data-testid={`transfer-${r.id}-receive`}>
              {t('stock:transfer.receive')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <>
      <div className="bo-page-head">
        <h1>{t('stock:transfer.title')}</h1>
        <Space wrap>
          <Segmented<StateFilter>
            value={state}
            onChange={(s) => go({ state: s, page: 1 })}
            options={STATES.map((s) => ({ value: s, label: t(`stock:transfer.filter.${s || 'all'}`) }))}
            data-testid="transfer-state"
          />
          {canCreate ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="transfer-create">
              {t('stock:transfer.create')}
            </Button>
          ) : null}
        </Space>
      </div>
      <Typography.Paragraph type="secondary">{t('stock:transfer.hint')}</Typography.Paragraph>
      <Table<TransferRow>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        expandable={{
          expandedRowRender: (r) => <TransferLines transfer={r} />,
          rowExpandable: (r) => r.items.length > 0,
        }}
        locale={{ emptyText: t('stock:transfer.empty') }}
        scroll={{ x: 'max-content' }}
        data-testid="transfer-table"
      />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => go({ page: p })} />
      <TransferFormModal open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** A transfer's lines, each with the lots its units came from. */
function TransferLines({ transfer }: { transfer: TransferRow }) {
  const { t } = useTranslation('stock');
  const columns = [
    { title: t('stock:fields.sku'), dataIndex: 'skuCode' },
    { title: t('stock:fields.product'), dataIndex: 'productName' },
    { title: t('stock:fields.quantity'), dataIndex: 'quantity', align: 'right' as const },
    { title: t('stock:fields.lots'), key: 'lots', render: (_: unknown, l: TransferLineBody) => <LotTakes lots={l.lots} testId={`transfer-${transfer.id}-line-${l.skuId}-lots`} /> },
  ];
  return (
    <Table<TransferLineBody>
      rowKey="skuId"
      size="small"
      columns={columns}
      dataSource={transfer.items}
      pagination={false}
      data-testid={`transfer-${transfer.id}-lines`}
    />
  );
}
