import { useState } from 'react';
import { Button, Card, Select, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import { STORE_CHANNEL } from './channel';
import { useBulkDeleteProductsMutation, useBulkProductStatusMutation, useListCategoriesQuery, useListProductsQuery, type ProductBody } from './api';
import { ProductViewDrawer } from './ProductViewDrawer';
import { SKU_CREATE, SKU_EDIT } from './routes';

function priceRange(p: ProductBody): string {
  const prices = p.skus.map((s) => Number(s.price));
  if (prices.length === 0) return p.price;
  const min = Math.min(...prices);
  const max = Math.max(...prices);
  const fmt = (n: number) => n.toLocaleString('th-TH', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return min === max ? fmt(min) : `${fmt(min)} – ${fmt(max)}`;
}

const available = (p: ProductBody) => p.skus.reduce((sum, s) => sum + s.inventories.reduce((a, i) => a + i.available, 0), 0);

export default function ProductListPage() {
  const { t, i18n } = useTranslation(['products', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const categoryId = Number(params.get('category')) || undefined;
  const status = params.get('status') || undefined;
  const { data, isFetching } = useListProductsQuery({ search: search || undefined, categoryId, status, page, limit: 10 });
  const { data: categories } = useListCategoriesQuery();
  const [setStatuses] = useBulkProductStatusMutation();
  const [removeMany] = useBulkDeleteProductsMutation();
  const [selected, setSelected] = useState<number[]>([]);
  const canCreate = useCan(SKU_CREATE);
  const canEdit = useCan(SKU_EDIT);
  // Members who may read but not edit open a product read-only.
  const [viewing, setViewing] = useState<number | null>(null);
  const navigate = useNavigate();

  const setParam = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next);
  };
  const categoryName = (cid: number) => {
    const c = categories?.data.find((x) => x.id === cid);
    return c ? (i18n.language === 'en' ? c.nameEn : c.name) : '';
  };

  // One request for the chosen products; each is answered on its own. A refusal of the whole
  // request (401, 403, a failure) has its global dialog.
  const bulkStatus = async (next: 'active' | 'inactive') => {
    const r = await setStatuses({ productBulkInput: { ids: selected, status: next } }).unwrap().catch(() => null);
    if (r?.succeeded) notifySuccess(t('products:list.statusChanged', { count: r.succeeded }));
    if (!r || r.failed) notifyError(t('products:errors.statusFailed'));
    setSelected([]);
  };
  const bulkDelete = async () => {
    const ok = await showDialog({ kind: 'warning', title: 'products:list.deleteTitle', message: 'products:list.deleteMessage', values: { count: selected.length }, confirm: 'common:actions.delete' });
    if (!ok) return;
    const r = await removeMany({ productBulkInput: { ids: selected } }).unwrap().catch(() => null);
    if (r?.succeeded) notifySuccess(t('products:list.deleted', { count: r.succeeded }));
    if (!r || r.failed) notifyError(t('products:errors.deleteFailed'));
    setSelected([]);
  };

  const columns = [
    {
      title: t('products:fields.name'),
      dataIndex: 'name',
      render: (name: string, p: ProductBody) => (
        <Space>
          {p.coverUrl ? <img src={`${p.coverUrl}?size=40`} alt="" width={40} height={40} style={{ borderRadius: 4 }} /> : <div className="bo-thumb-empty" />}
          <Space orientation="vertical" size={0}>
            {canEdit ? (
              <Link to={`/${id}/product-edit/${STORE_CHANNEL}/${p.id}`}>{name}</Link>
            ) : (
              <Typography.Link onClick={() => setViewing(p.id)} data-testid={`product-view-${p.id}`}>
                {name}
              </Typography.Link>
            )}
            <Typography.Text type="secondary">{p.code}</Typography.Text>
          </Space>
        </Space>
      ),
    },
    { title: t('products:fields.category'), dataIndex: 'categoryId', render: (c: number) => categoryName(c) },
    { title: t('products:fields.skus'), render: (_: unknown, p: ProductBody) => p.skus.length, align: 'right' as const },
    { title: t('products:fields.price'), render: (_: unknown, p: ProductBody) => priceRange(p), align: 'right' as const },
    { title: t('products:fields.available'), render: (_: unknown, p: ProductBody) => available(p), align: 'right' as const },
    {
      title: t('products:fields.status'),
      dataIndex: 'status',
      render: (s: string) => <Tag color={s === 'active' ? 'green' : 'default'}>{t(`products:status.${s}`)}</Tag>,
    },
  ];

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('products:list.title')}</h1>
        <Space wrap>
          <Select
            allowClear
            style={{ minWidth: 200 }}
            placeholder={t('products:list.allCategories')}
            value={categoryId}
            onChange={(v?: number) => setParam('category', v ? String(v) : undefined)}
            options={(categories?.data ?? []).map((c) => ({ value: c.id, label: i18n.language === 'en' ? c.nameEn : c.name }))}
          />
          <Select
            allowClear
            style={{ minWidth: 140 }}
            placeholder={t('products:list.allStatuses')}
            value={status}
            onChange={(v?: string) => setParam('status', v)}
            options={['active', 'inactive'].map((s) => ({ value: s, label: t(`products:status.${s}`) }))}
          />
          {canCreate ? (
            <Button icon={<UploadOutlined />} onClick={() => navigate(`/${id}/product-import-channel`)} data-testid="product-import">
              {t('products:list.import')}
            </Button>
          ) : null}
          {canCreate ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/${id}/product-create/${STORE_CHANNEL}`)} data-testid="product-create">
              {t('products:list.create')}
            </Button>
          ) : null}
        </Space>
      </div>
      {canEdit && selected.length > 0 ? (
        <Space style={{ marginBottom: 12 }} data-testid="bulk-actions">
          <Typography.Text>{t('products:list.selected', { count: selected.length })}</Typography.Text>
          <Button onClick={() => void bulkStatus('active')}>{t('products:list.activate')}</Button>
          <Button onClick={() => void bulkStatus('inactive')}>{t('products:list.deactivate')}</Button>
          <Button danger onClick={() => void bulkDelete()}>
            {t('common:actions.delete')}
          </Button>
        </Space>
      ) : null}
      <Table<ProductBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        rowSelection={canEdit ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        locale={{ emptyText: t(search ? 'products:list.noMatch' : 'products:list.empty') }}
        scroll={{ x: 760 }}
        data-testid="product-table"
      />
      <Pager
        page={data?.page ?? page}
        pages={data?.pages ?? 1}
        total={data?.total ?? 0}
        onChange={(p) => {
          const next = new URLSearchParams(params);
          next.set('page', String(p));
          setParams(next);
        }}
      />
      <ProductViewDrawer productId={viewing} categoryName={categoryName} onClose={() => setViewing(null)} />
    </Card>
  );
}
