// The import wizard for a marketplace shop (SPEC §2 `/product-import/{saleChannel}/upload|mapping|result/{storeChannelId}`):
// the platform's spreadsheet in the import template is read first (a dry run: its rows and
// their problems), then its listings are kept and linked like an API import, once per file,
// and each listing's outcome is shown with the failed rows to download.
import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Result, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { CheckOutlined, DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useGetMarketplaceChannelQuery, useImportListingSheetMutation, type MarketplacePath } from '@/features/marketplaces/api';
import { downloadText } from '@/shared/csv';
import { useListCategoriesQuery } from '../api';
import { ImportSteps } from '../import/ImportUploadPage';
import { checkImportFile, failedRowsCsv, importSession, resetImport } from '../import/session';
import { ImportResult } from './ImportListings';

/** The template's columns and what they are of a listing (SPEC §3 mapping, for a shop). */
export const LISTING_COLUMNS: [string, string][] = [
  ['product_id', 'itemId'],
  ['product_name', 'name'],
  ['sku_id', 'modelId'],
  ['variation_value', 'variation'],
  ['product_description', 'description'],
  ['price', 'price'],
  ['seller_sku', 'sellerSku'],
];

interface Step {
  storeId: string;
  channel: string;
  path: MarketplacePath;
  shopId: number;
}

/** How many rows have at least one problem (a row may have several). */
export const rowsWithProblems = (errors: { row: number }[]) => new Set(errors.map((e) => e.row)).size;

const stepUrl = (s: Step, step: 'upload' | 'mapping' | 'result') => `/${s.storeId}/product-import/${s.channel}/${step}/${s.shopId}`;

function ShopName({ shopId }: { shopId: number }) {
  const { t } = useTranslation('marketplaces');
  const { data } = useGetMarketplaceChannelQuery({ id: shopId });
  return data ? (
    <Typography.Paragraph type="secondary" data-testid="import-shop">
      {`${t(`names.${data.marketplace}`)} · ${data.shopName}`}
    </Typography.Paragraph>
  ) : null;
}

/** Step 1: choose the .xlsx; it is read (a dry run) before anything is kept. */
export function ListingFileUpload(s: Step) {
  const { t } = useTranslation(['products', 'common']);
  const navigate = useNavigate();
  const [read, { isLoading }] = useImportListingSheetMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (file: File) => {
    setProblem(null);
    const local = checkImportFile(file.name, file.size);
    if (local) {
      setProblem(local);
      return;
    }
    try {
      importSession.listings = await read({ mp: s.path, storeChannelId: s.shopId, file, dryRun: true }).unwrap();
      importSession.file = file;
      navigate(stepUrl(s, 'mapping'));
    } catch (e) {
      const code = apiError(e)?.fields?.[0]?.code ?? apiError(e)?.code;
      setProblem(code ? `products:import.errors.${code}` : 'common:errors.tryLater');
    }
  };
  return (
    <Card title={t('products:listings.file.title')}>
      <ImportSteps current={0} />
      <ShopName shopId={s.shopId} />
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t(problem, { defaultValue: t('products:import.errors.import_wrong_template') })} data-testid="import-error" /> : null}
      <Upload.Dragger
        accept=".xlsx"
        multiple={false}
        showUploadList={false}
        disabled={isLoading}
        beforeUpload={(file) => {
          void choose(file);
          return false;
        }}
        data-testid="import-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <Typography.Paragraph>{t('products:import.drop')}</Typography.Paragraph>
        <Typography.Text type="secondary">{t('products:listings.file.rules')}</Typography.Text>
      </Upload.Dragger>
    </Card>
  );
}

/** Step 2: how the template's columns map to listings, the rows read, and what to do with
 * listings no SKU matches. */
export function ListingFileMapping(s: Step) {
  const { t, i18n } = useTranslation(['products', 'common']);
  const navigate = useNavigate();
  const [run, { isLoading }] = useImportListingSheetMutation();
  const { data: categories } = useListCategoriesQuery();
  const [create, setCreate] = useState(false);
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [problem, setProblem] = useState<string | null>(null);
  const preview = importSession.listings;
  const file = importSession.file;
  if (!preview || !file) return <Navigate to={stepUrl(s, 'upload')} replace />;

  const start = async () => {
    if (create && !categoryId) {
      setProblem('common:validation.category');
      return;
    }
    try {
      importSession.listingsDone = await run({ mp: s.path, storeChannelId: s.shopId, file, dryRun: false, createProducts: create, categoryId }).unwrap();
      navigate(stepUrl(s, 'result'));
    } catch (e) {
      setProblem(apiError(e)?.code ? `products:import.errors.${apiError(e)?.code}` : 'common:errors.tryLater');
    }
  };

  return (
    <Card title={t('products:listings.file.title')}>
      <ImportSteps current={1} />
      <ShopName shopId={s.shopId} />
      <Table
        size="small"
        pagination={false}
        rowKey={(r) => r[0]}
        dataSource={LISTING_COLUMNS}
        style={{ marginBottom: 16 }}
        columns={[
          { title: t('products:import.column'), render: (_: unknown, r: [string, string]) => <code>{r[0]}</code> },
          { title: t('products:import.field'), render: (_: unknown, r: [string, string]) => t(`products:listings.file.fields.${r[1]}`) },
          { title: '', render: () => <CheckOutlined style={{ color: '#389e0d' }} /> },
        ]}
        data-testid="import-mapping"
      />
      <Alert
        type={preview.errors.length ? 'warning' : 'success'}
        showIcon
        style={{ marginBottom: 16 }}
        title={t('products:listings.file.summary', { rows: preview.rows.length, errors: rowsWithProblems(preview.errors) })}
        data-testid="import-summary"
      />
      <Table
        size="small"
        rowKey="row"
        dataSource={preview.rows.slice(0, 20)}
        pagination={false}
        style={{ marginBottom: 16 }}
        scroll={{ x: 640 }}
        columns={[
          { title: t('products:import.row'), dataIndex: 'row' },
          { title: t('products:listings.file.fields.itemId'), dataIndex: 'itemId' },
          { title: t('products:listings.file.fields.modelId'), dataIndex: 'modelId' },
          { title: t('products:listings.file.fields.name'), dataIndex: 'name' },
          { title: t('products:listings.file.fields.variation'), dataIndex: 'variation', render: (v: string) => (v ? <Tag>{v}</Tag> : null) },
          { title: t('products:listings.file.fields.sellerSku'), dataIndex: 'sellerSku' },
          { title: t('products:listings.file.fields.price'), dataIndex: 'price', align: 'right' as const },
        ]}
      />
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t(problem)} /> : null}
      <Form layout="vertical">
        <Checkbox checked={create} onChange={(e) => setCreate(e.target.checked)} data-testid="import-create">
          {t('products:listings.import.create')}
        </Checkbox>
        {create ? (
          <Form.Item label={t('products:listings.import.category')} required style={{ marginTop: 12, maxWidth: 360 }}>
            <Select
              value={categoryId}
              onChange={setCategoryId}
              options={(categories?.data ?? []).map((c) => ({ value: c.id, label: i18n.language === 'en' ? c.nameEn : c.name }))}
              data-testid="import-category"
            />
          </Form.Item>
        ) : null}
        <Space style={{ marginTop: 12 }}>
          <Button onClick={() => navigate(stepUrl(s, 'upload'))}>{t('common:actions.back')}</Button>
          <Button type="primary" loading={isLoading} onClick={() => void start()} disabled={preview.rows.length === 0} data-testid="import-start">
            {t('products:listings.file.start', { count: preview.rows.length })}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}

/** Step 3: what became of each listing, and the rows that could not be read to download. */
export function ListingFileResult(s: Step) {
  const { t } = useTranslation(['products', 'common']);
  const navigate = useNavigate();
  const [showing, setShowing] = useState(false);
  const done = importSession.listingsDone;
  if (!done?.import) return <Navigate to={stepUrl(s, 'upload')} replace />;
  const imp = done.import;
  const message = (code: string) => t(`common:${code}`, { defaultValue: code });
  const download = () =>
    downloadText('failed-rows.csv', failedRowsCsv(done.errors, [t('products:import.row'), t('products:import.column'), t('products:import.problem')], message));
  return (
    <Card title={t('products:listings.file.title')}>
      <ImportSteps current={2} />
      <Result
        status={done.errors.length || imp.failed ? 'warning' : 'success'}
        title={t('products:listings.import.counts', { seen: imp.seen, linked: imp.linked, created: imp.created, unlinked: imp.unlinked, failed: imp.failed })}
        subTitle={done.errors.length ? t('products:import.failedRows', { count: rowsWithProblems(done.errors) }) : undefined}
        extra={
          <Space wrap>
            <Button onClick={() => setShowing(true)} data-testid="import-result-open">
              {t('products:listings.import.result')}
            </Button>
            {done.errors.length ? (
              <Button icon={<DownloadOutlined />} onClick={download} data-testid="import-download">
                {t('products:import.download')}
              </Button>
            ) : null}
            <Button
              type="primary"
              onClick={() => {
                resetImport();
                navigate(`/${s.storeId}/product-list/${s.channel}/${s.shopId}`);
              }}
              data-testid="import-to-listings"
            >
              {t('products:listings.file.toListings')}
            </Button>
          </Space>
        }
        data-testid="import-result"
      />
      <ImportResult imp={showing ? imp : null} onClose={() => setShowing(false)} />
    </Card>
  );
}
