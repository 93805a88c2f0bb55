import { useState } from 'react';
import { Button, Card, Select, Space, Tag, Typography } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { Pager } from '@/shared/pager/Pager';
import { useAddressParams } from '@/shared/useAddressParams';
import { useCan } from '@/shared/useCan';
import { useIsMobile } from '@/app/layouts/useDevice';
import { BottomBar, HeadActions } from '@/shared/list/Actions';
import { Filters } from '@/shared/list/Filters';
import { ListView } from '@/shared/list/ListView';
import { pathOf, useSkuLinksQuery } from '@/features/marketplaces/api';
import { STORE_CHANNEL } from './channel';
import { ChannelSwitch } from './listings/ChannelSwitch';
import ListingsPage from './listings/ListingsPage';
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

/** The product list: the store's own catalogue, or a marketplace shop's listings when the
 * route names one (`/product-list/shopee/12`). */
export default function ProductListPage() {
  const { channel, providerName } = useParams();
  const marketplace = pathOf(channel);
  const shopId = Number(providerName);
  if (marketplace && shopId > 0) return <ListingsPage key={`${marketplace}/${shopId}`} path={marketplace} shopId={shopId} />;
  return <Catalogue />;
}

function Catalogue() {
  const { t, i18n } = useTranslation(['products', 'marketplaces', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { params, set } = useAddressParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const categoryId = Number(params.get('category')) || undefined;
  const status = params.get('status') || undefined;
  const { data, isFetching } = useListProductsQuery({ search: search || undefined, categoryId, status, page, limit: 10 });
  const { data: categories } = useListCategoriesQuery();
  // The marketplace shops each shown product's SKUs are linked to.
  const skuIds = (data?.data ?? []).flatMap((p) => p.skus.map((s) => s.id));
  const { data: links } = useSkuLinksQuery({ skuIds: skuIds.join(',') }, { skip: skuIds.length === 0 });
  const shopsOf = (p: ProductBody) => {
    const ids = new Set(p.skus.map((s) => s.id));
    const seen = new Map<number, string>();
    for (const l of links?.data ?? []) if (ids.has(l.skuId)) seen.set(l.storeChannelId, `${t(`marketplaces:names.${l.marketplace}`)} · ${l.shopName}`);
    return [...seen.values()];
  };
  const [setStatuses] = useBulkProductStatusMutation();
  const [removeMany] = useBulkDeleteProductsMutation();
  const [selected, setSelected] = useState<number[]>([]);
  const canCreate = useCan(SKU_CREATE);
  const canEdit = useCan(SKU_EDIT);
  // Members who may read but not edit open a product read-only.
  const [viewing, setViewing] = useState<number | null>(null);
  const navigate = useNavigate();
  const mobile = useIsMobile();

  const setParam = (key: string, value: string | undefined) => set({ [key]: value });
  /** Opens a product as its name's link does: the edit screen for editors, read-only for readers. */
  const open = (p: ProductBody) => {
    if (canEdit) navigate(`/${id}/product-edit/${STORE_CHANNEL}/${p.id}`);
    else setViewing(p.id);
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
    {
      title: t('products:listings.linkedShops'),
      render: (_: unknown, p: ProductBody) => (
        <span data-testid={`product-${p.id}-channels`}>
          {shopsOf(p).map((s) => (
            <Tag key={s} color="geekblue">
              {s}
            </Tag>
          ))}
        </span>
      ),
    },
    { title: t('products:fields.skus'), render: (_: unknown, p: ProductBody) => p.skus.length, align: 'right' as const },
    { title: t('products:fields.price'), render: (_: unknown, p: ProductBody) => priceRange(p), align: 'right' as const },
    { title: t('products:fields.available'), render: (_: unknown, p: ProductBody) => available(p), align: 'right' as const },
    {
      title: t('products:fields.status'),
      dataIndex: 'status',
      render: (s: string) => <Tag color={s === 'active' ? 'green' : 'default'}>{t(`products:status.${s}`)}</Tag>,
    },
  ];

  // In the head on a desktop; folded into the filters' drawer on a phone.
  const filters = (
    <>
      <Select
        allowClear
        style={{ minWidth: 200 }}
        placeholder={t('products:list.allCategories')}
        value={categoryId}
        onChange={(v?: number) => setParam('category', v ? String(v) : undefined)}
        options={(categories?.data ?? []).map((c) => ({ value: c.id, label: i18n.language === 'en' ? c.nameEn : c.name }))}
        data-testid="filter-category"
      />
      <Select
        allowClear
        style={{ minWidth: 140 }}
        placeholder={t('products:list.allStatuses')}
        value={status}
        onChange={(v?: string) => setParam('status', v)}
        options={['active', 'inactive'].map((s) => ({ value: s, label: t(`products:status.${s}`) }))}
        data-testid="filter-status"
      />
    </>
  );

  // Above the table on a desktop; at the foot on a phone (fixed at the bottom, its room kept under the list).
  const bulkBar =
    canEdit && selected.length > 0 ? (
      <div style={mobile ? undefined : { marginBottom: 12 }}>
        <BottomBar data-testid="bulk-actions">
          <Typography.Text>{t('products:list.selected', { count: selected.length })}</Typography.Text>
          <Button onClick={() => void bulkStatus('active')}>{t('products:list.activate')}</Button>
          <Button onClick={() => void bulkStatus('inactive')}>{t('products:list.deactivate')}</Button>
          <Button danger onClick={() => void bulkDelete()}>
            {t('common:actions.delete')}
          </Button>
        </BottomBar>
      </div>
    ) : null;

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('products:list.title')}</h1>
        <Space wrap>
          <ChannelSwitch value={STORE_CHANNEL} />
          {mobile ? null : filters}
          <HeadActions
            primary={
              canCreate ? (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/${id}/product-create/${STORE_CHANNEL}`)} data-testid="product-create">
                  {t('products:list.create')}
                </Button>
              ) : null
            }
          >
            {canCreate ? (
              <Button icon={<UploadOutlined />} onClick={() => navigate(`/${id}/product-import-channel`)} data-testid="product-import">
                {t('products:list.import')}
              </Button>
            ) : null}
          </HeadActions>
        </Space>
      </div>
      {mobile ? (
        <Filters
          active={(categoryId ? 1 : 0) + (status ? 1 : 0)}
          onClear={() => set({ category: undefined, status: undefined })}
        >
          {filters}
        </Filters>
      ) : null}
      {mobile ? null : bulkBar}
      <ListView<ProductBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        rowSelection={canEdit ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        locale={{ emptyText: t(search ? 'products:list.noMatch' : 'products:list.empty') }}
        scroll={{ x: 760 }}
        onOpen={open}
        cardTestId={(p) => `product-${p.id}-card`}
        card={(p) => <ProductCard product={p} available={available(p)} price={priceRange(p)} />}
        data-testid="product-table"
      />
      <Pager
        page={data?.page ?? page}
        pages={data?.pages ?? 1}
        total={data?.total ?? 0}
        onChange={(p) => set({ page: p })}
      />
      {mobile ? bulkBar : null}
      <ProductViewDrawer productId={viewing} categoryName={categoryName} onClose={() => setViewing(null)} />
    </Card>
  );
}

/** A product as a card on a phone: its cover, name and code, how many SKUs, what is
 * available, the price and whether it is on sale. */
function ProductCard({ product: p, available, price }: { product: ProductBody; available: number; price: string }) {
  const { t } = useTranslation('products');
  return (
    <div style={{ display: 'flex', gap: 10, alignItems: 'flex-start' }}>
      {p.coverUrl ? <img src={`${p.coverUrl}?size=48`} alt="" width={48} height={48} style={{ borderRadius: 4, flex: 'none' }} /> : <div className="bo-thumb-empty" style={{ width: 48, height: 48, flex: 'none' }} />}
      <div style={{ flex: 1, minWidth: 0 }}>
        <div className="bo-card-row">
          <span className="bo-card-title">{p.name}</span>
          <strong style={{ whiteSpace: 'nowrap', flex: 'none' }}>{price}</strong>
        </div>
        <div className="bo-card-sub">{p.code}</div>
        <div className="bo-card-sub">
          {t('list.cardSkus', { count: p.skus.length })} · <span data-testid={`product-${p.id}-available`}>{t('list.cardAvailable', { count: available })}</span>
        </div>
        <div className="bo-card-tags">
          <Tag color={p.status === 'active' ? 'green' : 'default'}>{t(`status.${p.status}`)}</Tag>
        </div>
      </div>
    </div>
  );
}
