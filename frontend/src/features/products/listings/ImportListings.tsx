import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Modal, Progress, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { useAppDispatch } from '@/app/hooks';
import {
  listingsChanged,
  useGetListingImportQuery,
  useImportedListingsQuery,
  useImportListingsMutation,
  useListListingImportsQuery,
  type ListingImportBody,
  type MarketplacePath,
} from '@/features/marketplaces/api';
import { notifyRefusal } from '@/shared/refusal';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useListCategoriesQuery } from '../api';

const OUTCOMES = ['created', 'linked', 'kept', 'unlinked', 'deleted', 'failed'] as const;
const OUTCOME_COLOURS: Record<string, string> = { created: 'blue', linked: 'green', kept: 'default', unlinked: 'orange', deleted: 'default', failed: 'red' };

/** Asks for an import of a shop's listings through its marketplace's API: whether products
 * are made for listings that match none of our SKUs, and in which category. */
export function ImportModal({ open, path, shopId, onClose }: { open: boolean; path: MarketplacePath; shopId: number; onClose: () => void }) {
  const { t, i18n } = useTranslation(['products', 'common']);
  const [create, setCreate] = useState(false);
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [start, { isLoading }] = useImportListingsMutation();
  const { data: categories } = useListCategoriesQuery();
  const [needCategory, setNeedCategory] = useState(false);

  const go = async () => {
    if (create && !categoryId) {
      setNeedCategory(true);
      return;
    }
    try {
      await start({ mp: path, importListingsInput: { storeChannelId: shopId, createProducts: create, categoryId } }).unwrap();
      onClose();
    } catch (e) {
      notifyRefusal(e, t, 'products', { fallback: 'products:listings.import.failed' });
    }
  };

  return (
    <Modal
      open={open}
      title={t('products:listings.import.title')}
      onCancel={onClose}
      onOk={() => void go()}
      okText={t('products:listings.import.start')}
      confirmLoading={isLoading}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('products:listings.import.hint')}</Typography.Paragraph>
      <Checkbox checked={create} onChange={(e) => setCreate(e.target.checked)} data-testid="import-create">
        {t('products:listings.import.create')}
      </Checkbox>
      {create ? (
        <div style={{ marginTop: 12 }}>
          <Select
            style={{ width: '100%' }}
            placeholder={t('products:listings.import.category')}
            value={categoryId}
            status={needCategory && !categoryId ? 'error' : undefined}
            onChange={(v: number) => {
              setCategoryId(v);
              setNeedCategory(false);
            }}
            options={(categories?.data ?? []).map((c) => ({ value: c.id, label: i18n.language === 'en' ? c.nameEn : c.name }))}
            data-testid="import-category"
          />
          {needCategory && !categoryId ? <Typography.Text type="danger">{t('products:listings.import.needCategory')}</Typography.Text> : null}
        </div>
      ) : null}
    </Modal>
  );
}

/** The shop's newest import: its progress while it runs (asked again every second), its
 * counts once done, and each listing's outcome on asking. */
export function ImportStatus({ shopId, path }: { shopId: number; path: MarketplacePath }) {
  const { t, i18n } = useTranslation(['products', 'common']);
  const { data: imports } = useListListingImportsQuery({ mp: path, storeChannelId: shopId });
  const latest = imports?.data[0];
  const running = latest?.state === 'running';
  const { data: live } = useGetListingImportQuery({ id: latest?.id ?? 0 }, { skip: !running, pollingInterval: running ? 1000 : 0 });
  const [showing, setShowing] = useState<ListingImportBody | null>(null);
  const dispatch = useAppDispatch();
  const imp = running && live ? live : latest;
  // An import seen finishing (or first seen finished, after one was asked for): the list and
  // its counts are read again.
  const seen = useRef<string | undefined>(undefined);
  const key = imports === undefined ? undefined : imp ? `${imp.id}:${imp.state}` : '';
  useEffect(() => {
    const before = seen.current;
    seen.current = key;
    if (before !== undefined && before !== key && imp && imp.state !== 'running') dispatch(listingsChanged());
  }, [key, imp, dispatch]);
  if (!imp) return null;
  const when = formatDateTime(imp.finishedAt || imp.startedAt, i18n.language);
  const counts = t('products:listings.import.counts', {
    seen: imp.seen,
    linked: imp.linked,
    created: imp.created,
    unlinked: imp.unlinked,
    failed: imp.failed,
  });
  return (
    <>
      {imp.state === 'running' ? (
        <Alert
          type="info"
          showIcon
          title={t('products:listings.import.running', { pages: imp.pages, seen: imp.seen })}
          description={<Progress percent={imp.total ? Math.min(99, Math.round((imp.seen / Math.max(imp.total, imp.seen)) * 100)) : 5} size="small" status="active" />}
          style={{ marginBottom: 12 }}
          data-testid="import-running"
        />
      ) : (
        <Alert
          type={imp.state === 'failed' ? 'error' : 'success'}
          showIcon
          title={imp.state === 'failed' ? t('products:listings.import.stopped', { when, why: imp.error }) : t('products:listings.import.done', { when })}
          description={counts}
          action={
            <Button size="small" onClick={() => setShowing(imp)} data-testid="import-result-open">
              {t('products:listings.import.result')}
            </Button>
          }
          style={{ marginBottom: 12 }}
          data-testid="import-done"
        />
      )}
      <ImportResult imp={showing} onClose={() => setShowing(null)} />
    </>
  );
}

/** Each listing of an import with what became of it, by outcome, a page at a time. */
export function ImportResult({ imp, onClose }: { imp: ListingImportBody | null; onClose: () => void }) {
  const { t } = useTranslation(['products', 'common']);
  const [outcome, setOutcome] = useState<string>('');
  const [page, setPage] = useState(1);
  const { data, isFetching } = useImportedListingsQuery(
    { id: imp?.id ?? 0, outcome: outcome || undefined, page, limit: 10 },
    { skip: !imp },
  );
  if (!imp) return null;
  return (
    <Modal open title={t('products:listings.import.resultTitle')} onCancel={onClose} footer={null} width={820} destroyOnHidden>
      <Space style={{ marginBottom: 12 }} wrap>
        <Segmented
          value={outcome}
          onChange={(v) => {
            setOutcome(String(v));
            setPage(1);
          }}
          options={[{ value: '', label: t('products:listings.outcome.all') }, ...OUTCOMES.map((o) => ({ value: o, label: t(`products:listings.outcome.${o}`) }))]}
          data-testid="import-outcome"
        />
      </Space>
      <Table
        rowKey="n"
        size="small"
        loading={isFetching}
        dataSource={data?.data ?? []}
        pagination={{ current: page, total: data?.total ?? 0, pageSize: 10, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: t('products:listings.fields.listing'), render: (_: unknown, r) => <>{r.name}<br /><Typography.Text type="secondary">{r.modelId ? `${r.itemId}:${r.modelId}` : r.itemId}</Typography.Text></> },
          { title: t('products:listings.fields.sellerSku'), dataIndex: 'sellerSku' },
          {
            title: t('products:listings.fields.outcome'),
            render: (_: unknown, r) => (
              <Space orientation="vertical" size={0}>
                <Tag color={OUTCOME_COLOURS[r.outcome]}>{t(`products:listings.outcome.${r.outcome}`)}</Tag>
                {r.detail ? <Typography.Text type="secondary">{r.detail}</Typography.Text> : null}
              </Space>
            ),
          },
        ]}
        data-testid="import-rows"
      />
    </Modal>
  );
}
