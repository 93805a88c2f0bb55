import { useState } from 'react';
import { Badge, Button, Card, Dropdown, Input, Select, Space, Tabs, Typography } from 'antd';
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { useIsMobile } from '@/app/layouts/useDevice';
import { formatDateTime } from '@/shared/i18n/i18n';
import { HeadActions } from '@/shared/list/Actions';
import { Filters } from '@/shared/list/Filters';
import { ListView } from '@/shared/list/ListView';
import { formatBaht } from '@/shared/money';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import { useListGoodsReceiptsQuery, type GoodsReceiptBody } from '../api';
import { RECEIPT_CREATE } from '../routes';
import { ReceiptCard, StateTag } from './parts';
import { boardPath, createPath, detailPath, formatArrival, isTab, isType, TABS, TYPES, type Tab } from './receipts';

const PAGE_SIZE = 10;

/** /stock-management-goods-receipt/{state} (SPEC §2, §4): the goods receipt board, one tab per
 * group (draft; pending and received; approved, shelving and shelved; rejected) with its count,
 * searched by code or note and filtered by type; `?search=`, `?type=` and `?page=` keep the
 * view in the address. On a phone the receipts are cards and the type filter folds away. */
export default function ReceiptBoardPage() {
  const { t, i18n } = useTranslation(['receipts', 'common']);
  const { storeId, state } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const canCreate = useCan(RECEIPT_CREATE);
  const search = params.get('search') ?? '';
  const typeFilter = isType(params.get('type')) ? (params.get('type') as string) : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [typed, setTyped] = useState(search);
  const mobile = useIsMobile();
  const tab: Tab = isTab(state) ? state : 'draft';
  const { data, isFetching } = useListGoodsReceiptsQuery({ state: tab, search: search || undefined, type: typeFilter, page, limit: PAGE_SIZE }, { skip: !isTab(state) });

  if (!isTab(state)) return <Navigate to={boardPath(storeId ?? '', 'draft')} replace />;

  /** The same view with some of the address' query changed (the page back to 1 unless named). */
  const query = (change: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    return next;
  };
  const goTab = (k: string) => {
    const q = query({}).toString();
    navigate(`${boardPath(storeId ?? '', k)}${q ? `?${q}` : ''}`);
  };
  const open = (r: GoodsReceiptBody) => detailPath(storeId ?? '', r.state, r.id);

  const columns = [
    {
      title: t('receipts:fields.code'),
      key: 'code',
      width: 160,
      render: (_: unknown, r: GoodsReceiptBody) => (
        <Link to={open(r)} onClick={(e) => e.stopPropagation()} style={{ whiteSpace: 'nowrap' }} data-testid={`receipt-${r.id}-link`}>
          {r.code}
        </Link>
      ),
    },
    { title: t('receipts:fields.type'), key: 'type', width: 100, render: (_: unknown, r: GoodsReceiptBody) => t(`receipts:types.${r.type}`, { defaultValue: r.type }) },
    { title: t('receipts:fields.warehouse'), dataIndex: 'warehouseName', key: 'warehouse', width: 160 },
    {
      title: t('receipts:fields.expectedReceived'),
      key: 'expected',
      width: 170,
      render: (_: unknown, r: GoodsReceiptBody) => <span style={{ whiteSpace: 'nowrap' }}>{formatArrival(r.expectedReceivedDate, r.expectedReceivedTime, i18n.language)}</span>,
    },
    {
      title: t('receipts:fields.lines'),
      key: 'lines',
      width: 170,
      align: 'right' as const,
      render: (_: unknown, r: GoodsReceiptBody) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {t('receipts:board.linesPieces', { count: r.lineCount, pieces: r.totalRequestQty.toLocaleString('en-US') })}
        </span>
      ),
    },
    { title: t('receipts:fields.totalCost'), key: 'cost', width: 130, align: 'right' as const, render: (_: unknown, r: GoodsReceiptBody) => formatBaht(r.totalCost) },
    { title: t('receipts:fields.state'), key: 'state', width: 130, render: (_: unknown, r: GoodsReceiptBody) => <StateTag state={r.state} /> },
    { title: t('receipts:fields.note'), dataIndex: 'note', key: 'note', width: 200, ellipsis: true },
    {
      title: t('receipts:fields.createdBy'),
      key: 'created',
      width: 180,
      render: (_: unknown, r: GoodsReceiptBody) => (
        <Space orientation="vertical" size={0}>
          <span>{r.createdByName}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
            {formatDateTime(r.createdAt, i18n.language)}
          </Typography.Text>
        </Space>
      ),
    },
  ];

  const createMenu = {
    items: TYPES.map((k) => ({ key: k, label: <span data-testid={`create-${k}`}>{t(`receipts:types.${k}`)}</span> })),
    onClick: ({ key }: { key: string }) => navigate(createPath(storeId ?? '', key)),
  };

  return (
    <Card data-testid="receipt-board">
      <div className="bo-page-head">
        <h1>{t('receipts:board.title')}</h1>
        <HeadActions
          primary={
            canCreate ? (
              <Dropdown menu={createMenu} trigger={['click']}>
                <Button type="primary" icon={<PlusOutlined />} data-testid="receipt-create">
                  {t('receipts:board.create')} <DownOutlined />
                </Button>
              </Dropdown>
            ) : null
          }
        />
      </div>
      <Tabs
        activeKey={tab}
        onChange={goTab}
        items={TABS.map((k) => ({
          key: k,
          label: (
            <span data-testid={`tab-${k}`}>
              {t(`receipts:tabs.${k}`)}{' '}
              <Badge count={data?.counts[k] ?? 0} showZero overflowCount={9999} color={k === tab ? '#0b2545' : '#bfbfbf'} data-testid={`tab-${k}-count`} />
            </span>
          ),
        }))}
      />
      <Filters
        active={typeFilter ? 1 : 0}
        onClear={mobile && typeFilter ? () => setParams(query({ type: undefined })) : undefined}
        search={
          <Input.Search
            allowClear
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onSearch={(v) => setParams(query({ search: v.trim() || undefined }))}
            placeholder={t('receipts:board.search')}
            style={{ width: mobile ? '100%' : 300 }}
            inputMode="search"
            data-testid="receipt-search"
          />
        }
        data-testid="receipt-filters"
      >
        <Select
          allowClear
          value={typeFilter}
          onChange={(v?: string) => setParams(query({ type: v }))}
          placeholder={t('receipts:board.allTypes')}
          options={TYPES.map((k) => ({ value: k, label: t(`receipts:types.${k}`) }))}
          style={{ width: 180 }}
          data-testid="receipt-type-filter"
        />
      </Filters>
      <ListView<GoodsReceiptBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        locale={{ emptyText: t(`receipts:board.empty.${tab}`) }}
        onRow={(r) => ({ onClick: () => navigate(open(r)), style: { cursor: 'pointer' } })}
        scroll={{ x: 1400 }}
        onOpen={(r) => navigate(open(r))}
        cardTestId={(r) => `receipt-${r.id}-card`}
        card={(r) => <ReceiptCard r={r} lng={i18n.language} />}
        data-testid="receipt-table"
      />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => setParams(query({ page: String(p) }))} />
    </Card>
  );
}
