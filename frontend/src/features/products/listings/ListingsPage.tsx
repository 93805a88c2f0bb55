import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Checkbox, Empty, Input, Modal, Segmented, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { CloudDownloadOutlined, LinkOutlined, SettingOutlined, SyncOutlined, ThunderboltOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import {
  ago,
  listingsChanged,
  useAutoLinkListingsMutation,
  useCreateProductsFromListingsMutation,
  useGetMarketplaceChannelQuery,
  useListListingImportsQuery,
  useListListingsQuery,
  useStockSyncQuery,
  useUnlinkListingMutation,
  useUpdateStockMutation,
  type ListingBody,
  type MarketplacePath,
} from '@/features/marketplaces/api';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { showDialog } from '@/shared/dialogs/dialogs';
import { BottomBar } from '@/shared/list/Actions';
import { ListView } from '@/shared/list/ListView';
import { Pager } from '@/shared/pager/Pager';
import { notifyRefusal } from '@/shared/refusal';
import { useAddressParams } from '@/shared/useAddressParams';
import { useCan } from '@/shared/useCan';
import { useAppDispatch } from '@/app/hooks';
import { useIsMobile } from '@/app/layouts/useDevice';
import { useLive } from '@/app/realtime';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useListCategoriesQuery } from '../api';
import { SKU_CREATE, SKU_EDIT } from '../routes';
import { ChannelSwitch } from './ChannelSwitch';
import { ImportModal, ImportStatus } from './ImportListings';
import { LinkModal } from './LinkModal';
import { filterOf, linkOf, pushState, reference, tabOf, TABS, variation } from './listing';
import { MatchRulesDrawer } from './MatchRulesDrawer';
import { StockRuleDrawer } from './StockRuleDrawer';

const OWNER = { roles: ['owner'] };
const PUSH_COLOURS: Record<string, string> = { due: 'processing', refused: 'error', left: 'warning', pushed: 'success', never: 'default', unlinked: 'default' };

/** A listing's picture, as the marketplace serves it; an empty square when it has none or it
 * cannot be loaded. */
function Thumb({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return <div className="bo-thumb-empty" />;
  return <img src={src} alt="" width={40} height={40} style={{ borderRadius: 4, objectFit: 'cover' }} onError={() => setFailed(true)} />;
}

/** A marketplace shop's listings (SPEC §2 `/product-list/{channel}/{providerName}`): the queue
 * of listings waiting for a SKU first, each linked by hand or as a bundle, automatically by
 * seller SKU or name, or made into products; imports through the marketplace's API with
 * their outcomes; the shop's stock rule and a listing's own; stock pushed now or all of it,
 * with the push's progress. */
export default function ListingsPage({ path, shopId }: { path: MarketplacePath; shopId: number }) {
  const { t, i18n } = useTranslation(['products', 'marketplaces', 'common']);
  const { params, set } = useAddressParams();
  const tab = tabOf(params.get('tab'));
  const search = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const mobile = useIsMobile();
  const canEdit = useCan(SKU_EDIT);
  const canCreate = useCan(SKU_CREATE);
  const owner = useCan(OWNER);
  const { data: shop, isError: noShop } = useGetMarketplaceChannelQuery({ id: shopId });
  const { data, isFetching } = useListListingsQuery({ id: shopId, ...filterOf(tab), search: search || undefined, page, limit: 20 });
  const [searching, setSearching] = useState(search);
  const [selected, setSelected] = useState<number[]>([]);
  const [linking, setLinking] = useState<ListingBody | null>(null);
  const [ruleOf, setRuleOf] = useState<number | 'shop' | null>(null);
  const [importing, setImporting] = useState(false);
  const [matching, setMatching] = useState(false);
  const [creating, setCreating] = useState(false);
  const [autoAsking, setAutoAsking] = useState(false);
  const [byName, setByName] = useState(true);
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const { data: categories } = useListCategoriesQuery(undefined, { skip: !creating });
  const { data: sync } = useStockSyncQuery({ id: shopId }, { pollingInterval: 0 });
  const { data: imports } = useListListingImportsQuery({ mp: path, storeChannelId: shopId });
  const neverImported = imports !== undefined && imports.data.length === 0 && (data?.total ?? 0) === 0;
  const running = sync?.status === 'in_progress';
  // Its steps arrive over the realtime socket; without it, they are asked for every second.
  const live = useLive();
  useStockSyncQuery({ id: shopId }, { skip: !running || live, pollingInterval: running && !live ? 1000 : 0 });
  // A push all seen finishing (or finished anew): the listings' pushes are read again.
  const dispatch = useAppDispatch();
  const seenSync = useRef<string | undefined>(undefined);
  const syncKey = sync ? `${sync.status}:${sync.finishedAt}` : undefined;
  useEffect(() => {
    const before = seenSync.current;
    seenSync.current = syncKey;
    if (before !== undefined && before !== syncKey && !running) dispatch(listingsChanged());
  }, [syncKey, running, dispatch]);
  const [autoLink, { isLoading: linkingAll }] = useAutoLinkListingsMutation();
  const [unlink] = useUnlinkListingMutation();
  const [push, { isLoading: pushing }] = useUpdateStockMutation();
  const [createProducts, { isLoading: making }] = useCreateProductsFromListingsMutation();

  if (noShop) return <Card><Alert type="error" showIcon title={t('products:listings.noShop')} /></Card>;

  const runAutoLink = async () => {
    setAutoAsking(false);
    try {
      const r = await autoLink({ id: shopId, autoLinkInput: { byName } }).unwrap();
      notifySuccess(t('products:listings.auto.done', { sku: r.bySellerSku, name: r.byName, waiting: r.waiting }));
    } catch (e) {
      notifyRefusal(e, t, 'products', { fallback: 'products:listings.auto.failed' });
    }
  };

  const pushNow = async (ids: number[]) => {
    try {
      await push({ mp: path, updateStockInput: { storeChannelId: shopId, listingIds: ids } }).unwrap();
      notifySuccess(t(ids.length ? 'products:listings.push.queued' : 'products:listings.push.allStarted', { count: ids.length }));
      setSelected([]);
    } catch (e) {
      notifyRefusal(e, t, 'products', { fallback: 'products:listings.push.failed' });
    }
  };

  const doUnlink = async (l: ListingBody) => {
    const ok = await showDialog({ kind: 'warning', title: 'products:listings.unlink.title', message: 'products:listings.unlink.message', values: { name: l.name }, confirm: 'products:listings.unlink.confirm' });
    if (!ok) return;
    if (!l.productId) return;
    try {
      await unlink({ id: l.productId, channel: path, ref: l.id }).unwrap();
      notifySuccess(t('products:listings.unlink.done'));
    } catch (e) {
      notifyRefusal(e, t, 'products', { fallback: 'products:listings.unlink.failed' });
    }
  };

  const makeProducts = async () => {
    if (!categoryId) return;
    try {
      const r = await createProducts({ id: shopId, createFromListingsInput: { listingIds: selected, categoryId } }).unwrap();
      const made = r.data.filter((c) => c.skuId).length;
      const failed = r.data.filter((c) => !c.skuId);
      if (made) notifySuccess(t('products:listings.create.done', { count: made }));
      if (failed.length) notifyError(t('products:listings.create.someFailed', { count: failed.length, why: failed[0].error }));
      setCreating(false);
      setSelected([]);
    } catch (e) {
      notifyRefusal(e, t, 'products', { fallback: 'products:listings.create.failed' });
    }
  };

  const linkCell = (l: ListingBody) => {
    const link = linkOf(l);
    if (link.kind === 'sku') {
      return (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{link.code}</Typography.Text>
          <Typography.Text type="secondary">{link.name}</Typography.Text>
        </Space>
      );
    }
    if (link.kind === 'bundle') {
      return (
        <Space orientation="vertical" size={0}>
          <Tag color="purple">{t('products:listings.bundleTag')}</Tag>
          {link.parts.map((p) => (
            <Typography.Text key={p.code} type="secondary">
              {p.quantity} × {p.code}
            </Typography.Text>
          ))}
        </Space>
      );
    }
    return <Tag color={l.linkedBy === 'unlinked' ? 'default' : 'orange'}>{t(l.linkedBy === 'unlinked' ? 'products:listings.unlinkedByPerson' : 'products:listings.waitingTag')}</Tag>;
  };

  const stockCell = (l: ListingBody) => {
    const state = pushState(l);
    if (state === 'unlinked') return <Typography.Text type="secondary">{t('products:listings.notPushed')}</Typography.Text>;
    const text = state === 'refused' ? l.lastAnswer : t(`products:listings.push.states.${state}`);
    return (
      <Space orientation="vertical" size={0}>
        <span data-testid={`listing-${l.id}-shown`}>
          {l.available === l.pushed || l.available === null || l.available === undefined
            ? t('products:listings.showsSent', { pushed: l.pushed ?? '–' })
            : t('products:listings.shows', { available: l.available, pushed: l.pushed ?? '–' })}
        </span>
        <Tooltip title={l.lastPushAt ? formatDateTime(l.lastPushAt, i18n.language) : undefined}>
          <Tag color={PUSH_COLOURS[state]}>{text}</Tag>
        </Tooltip>
        {l.lastPushAt ? <Typography.Text type="secondary">{ago(l.lastPushAt, i18n.language)}</Typography.Text> : null}
      </Space>
    );
  };

  // What the channel shows; flagged when a read-back found another quantity than it took.
  const platformStockCell = (l: ListingBody) =>
    l.stockDiffers ? (
      <Tooltip
        title={t('products:listings.differs.hint', {
          shown: l.platformStock,
          pushed: l.pushed,
          when: l.stockCheckedAt ? formatDateTime(l.stockCheckedAt, i18n.language) : '–',
        })}
      >
        <Typography.Text type="danger" data-testid={`listing-${l.id}-differs`}>
          <WarningOutlined /> {l.platformStock}
        </Typography.Text>
      </Tooltip>
    ) : (
      (l.platformStock ?? '–')
    );

  const actions = (l: ListingBody) =>
    canEdit && l.state !== 'deleted' ? (
      <Space wrap size={4}>
        <Button size="small" icon={<LinkOutlined />} onClick={() => setLinking(l)} data-testid={`listing-${l.id}-link`}>
          {l.skuId || l.parts.length ? t('products:listings.changeLink') : t('products:listings.pickSku')}
        </Button>
        {l.skuId || l.parts.length ? (
          <>
            <Button size="small" onClick={() => void doUnlink(l)} data-testid={`listing-${l.id}-unlink`}>
              {t('products:listings.unlink.action')}
            </Button>
            <Button size="small" onClick={() => void pushNow([l.id])} data-testid={`listing-${l.id}-push`}>
              {t('products:listings.push.one')}
            </Button>
            {owner ? (
              <Button size="small" type={l.ownRule ? 'primary' : 'default'} ghost={l.ownRule} onClick={() => setRuleOf(l.id)} data-testid={`listing-${l.id}-rule`}>
                {t('products:listings.rule.own')}
              </Button>
            ) : null}
          </>
        ) : null}
      </Space>
    ) : null;

  const columns = [
    {
      title: t('products:listings.fields.listing'),
      render: (_: unknown, l: ListingBody) => (
        <Space align="start">
          <Thumb src={l.imageUrl} />
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{l.name}</Typography.Text>
            {l.options.length ? <Typography.Text>{variation(l)}</Typography.Text> : null}
            <Typography.Text type="secondary">{reference(l)}</Typography.Text>
            {l.state !== 'active' ? <Tag>{t(`products:listings.states.${l.state}`)}</Tag> : null}
          </Space>
        </Space>
      ),
    },
    { title: t('products:listings.fields.sellerSku'), dataIndex: 'sellerSku', render: (s: string) => s || '–' },
    { title: t('products:listings.fields.price'), dataIndex: 'price', align: 'right' as const },
    { title: t('products:listings.fields.platformStock'), render: (_: unknown, l: ListingBody) => platformStockCell(l), align: 'right' as const },
    { title: t('products:listings.fields.ourSku'), render: (_: unknown, l: ListingBody) => linkCell(l) },
    { title: t('products:listings.fields.stock'), render: (_: unknown, l: ListingBody) => stockCell(l) },
    { title: '', render: (_: unknown, l: ListingBody) => actions(l) },
  ];

  const count = (k: (typeof TABS)[number]) => (k === 'waiting' ? data?.waiting : k === 'linked' ? data?.linked : k === 'differs' ? data?.stockDiffers : undefined);
  // The tab of listings whose channel stock differs shows while there are some (or it is open).
  const tabs = TABS.filter((k) => k !== 'differs' || tab === 'differs' || (data?.stockDiffers ?? 0) > 0);
  const name = shop ? `${shop.shopName} · ${t(`marketplaces:names.${shop.marketplace}`)}` : '';

  return (
    <Card>
      <div className="bo-page-head">
        <Space orientation="vertical" size={0}>
          <h1>{t('products:listings.title')}</h1>
          <Typography.Text type="secondary" data-testid="listings-shop">
            {name}
          </Typography.Text>
        </Space>
        <Space wrap>
          <ChannelSwitch value={`${path.replace('-', '_')}/${shopId}`} />
          {canCreate ? (
            <Button icon={<CloudDownloadOutlined />} onClick={() => setImporting(true)} data-testid="listings-import">
              {t('products:listings.import.open')}
            </Button>
          ) : null}
          {canEdit ? (
            <Button icon={<ThunderboltOutlined />} onClick={() => setAutoAsking(true)} loading={linkingAll} data-testid="listings-auto-link">
              {t('products:listings.auto.open')}
            </Button>
          ) : null}
          {canEdit ? (
            <Button onClick={() => setMatching(true)} data-testid="listings-match-rules">
              {t('products:listings.rules.open')}
            </Button>
          ) : null}
          {owner ? (
            <Button icon={<SettingOutlined />} onClick={() => setRuleOf('shop')} data-testid="listings-shop-rule">
              {t('products:listings.rule.open')}
            </Button>
          ) : null}
          {canEdit ? (
            <Button type="primary" icon={<SyncOutlined spin={running} />} onClick={() => void pushNow([])} loading={pushing} disabled={running} data-testid="listings-push-all">
              {t('products:listings.push.all')}
            </Button>
          ) : null}
        </Space>
      </div>
      {sync && sync.total > 0 ? (
        <Typography.Paragraph type="secondary" data-testid="stock-sync">
          {running
            ? t('products:listings.push.inProgress', { done: sync.done, total: sync.total })
            : t('products:listings.push.finished', { when: formatDateTime(sync.finishedAt, i18n.language), total: sync.total })}
        </Typography.Paragraph>
      ) : null}
      <ImportStatus shopId={shopId} path={path} />
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          value={tab}
          onChange={(v) => set({ tab: String(v), page: undefined })}
          options={tabs.map((k) => ({ value: k, label: count(k) === undefined ? t(`products:listings.tabs.${k}`) : `${t(`products:listings.tabs.${k}`)} (${count(k)})` }))}
          data-testid="listings-tabs"
        />
        <Input.Search
          allowClear
          value={searching}
          onChange={(e) => setSearching(e.target.value)}
          onSearch={(v) => set({ q: v || undefined, page: undefined })}
          placeholder={t('products:listings.search')}
          style={{ width: 260 }}
          data-testid="listings-search"
        />
      </Space>
      {canEdit && selected.length > 0 ? (
        <div style={mobile ? undefined : { marginBottom: 12 }}>
          <BottomBar data-testid="listings-bulk">
            <Typography.Text>{t('products:list.selected', { count: selected.length })}</Typography.Text>
            {canCreate ? <Button onClick={() => setCreating(true)} data-testid="listings-create">{t('products:listings.create.open')}</Button> : null}
            <Button onClick={() => void pushNow(selected)}>{t('products:listings.push.selected')}</Button>
          </BottomBar>
        </div>
      ) : null}
      <ListView<ListingBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        rowSelection={canEdit ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        locale={{
          emptyText: (
            <Empty description={t(neverImported ? 'products:listings.neverImported' : tab === 'waiting' ? 'products:listings.emptyQueue' : 'products:listings.empty')}>
              {neverImported && canCreate ? (
                <Button type="primary" icon={<CloudDownloadOutlined />} onClick={() => setImporting(true)}>
                  {t('products:listings.import.open')}
                </Button>
              ) : null}
            </Empty>
          ),
        }}
        scroll={{ x: 1100 }}
        onOpen={(l) => (canEdit ? setLinking(l) : undefined)}
        cardTestId={(l) => `listing-${l.id}-card`}
        card={(l) => (
          <div>
            <div className="bo-card-row">
              <span className="bo-card-title">{l.name}</span>
              <strong>{l.price}</strong>
            </div>
            <div className="bo-card-sub">{[variation(l), l.sellerSku].filter(Boolean).join(' · ')}</div>
            <div style={{ marginTop: 6 }}>{linkCell(l)}</div>
            <div style={{ marginTop: 6 }}>{stockCell(l)}</div>
          </div>
        )}
        data-testid="listings-table"
      />
      <Pager page={data?.page ?? page} pages={data?.pages ?? 1} total={data?.total ?? 0} onChange={(p) => set({ page: p })} />
      {linking ? <LinkModal key={linking.id} listing={linking} onClose={() => setLinking(null)} /> : null}
      <ImportModal open={importing} path={path} shopId={shopId} onClose={() => setImporting(false)} />
      <MatchRulesDrawer open={matching} onClose={() => setMatching(false)} />
      <StockRuleDrawer open={ruleOf !== null} shopId={shopId} listingId={typeof ruleOf === 'number' ? ruleOf : undefined} onClose={() => setRuleOf(null)} />
      <Modal
        open={autoAsking}
        title={t('products:listings.auto.title')}
        onCancel={() => setAutoAsking(false)}
        onOk={() => void runAutoLink()}
        okText={t('products:listings.auto.run')}
        okButtonProps={{ id: 'auto-link-run' }}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('products:listings.auto.message')}</Typography.Paragraph>
        <Checkbox checked={byName} onChange={(e) => setByName(e.target.checked)} data-testid="auto-link-by-name">
          {t('products:listings.auto.byName')}
        </Checkbox>
      </Modal>
      <Modal
        open={creating}
        title={t('products:listings.create.title', { count: selected.length })}
        onCancel={() => setCreating(false)}
        onOk={() => void makeProducts()}
        okButtonProps={{ disabled: !categoryId, id: 'listings-create-confirm' }}
        confirmLoading={making}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('products:listings.create.hint')}</Typography.Paragraph>
        <Select
          style={{ width: '100%' }}
          placeholder={t('products:listings.import.category')}
          value={categoryId}
          onChange={(v: number) => setCategoryId(v)}
          options={(categories?.data ?? []).map((c) => ({ value: c.id, label: i18n.language === 'en' ? c.nameEn : c.name }))}
          data-testid="listings-create-category"
        />
      </Modal>
    </Card>
  );
}
