import { useState } from 'react';
import { Alert, Button, Card, Form, Select, Space, Table, Tag } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { pathOf } from '@/features/marketplaces/api';
import { ListingFileMapping } from '../listings/FileImport';
import { Navigate, useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useImportProductsFileMutation, useListCategoriesQuery } from '../api';
import { ImportSteps } from './ImportUploadPage';
import { COLUMN_MAPPING, importSession } from './session';

/** Step 2: how the file's columns map to products, a look at the rows, and the category. */
/** The wizard's step for the store's own catalogue, or for a marketplace shop. */
export default function ImportMappingPage() {
  const { storeId, saleChannel, storeChannelId } = useParams();
  const path = pathOf(saleChannel);
  const shopId = Number(storeChannelId);
  if (path && shopId > 0) return <ListingFileMapping storeId={storeId ?? ''} channel={saleChannel ?? ''} path={path} shopId={shopId} />;
  return <StoreImportMappingPage />;
}

function StoreImportMappingPage() {
  const { t, i18n } = useTranslation(['products', 'common']);
  const { storeId, saleChannel, storeChannelId } = useParams();
  const navigate = useNavigate();
  const { data: categories } = useListCategoriesQuery();
  const [run, { isLoading }] = useImportProductsFileMutation();
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [problem, setProblem] = useState<string | null>(null);
  const preview = importSession.preview;
  const file = importSession.file;
  const upload = `/${storeId}/product-import/${saleChannel}/upload/${storeChannelId}`;
  if (!preview || !file) return <Navigate to={upload} replace />;

  const start = async () => {
    if (!categoryId) {
      setProblem('common:validation.category');
      return;
    }
    try {
      importSession.result = await run({ file, categoryId, dryRun: false }).unwrap();
      navigate(`/${storeId}/product-import/${saleChannel}/result/${storeChannelId}`);
    } catch (e) {
      setProblem(apiError(e)?.code ? `products:import.errors.${apiError(e)?.code}` : 'common:errors.tryLater');
    }
  };

  return (
    <Card title={t('products:import.title')}>
      <ImportSteps current={1} />
      <Table
        size="small"
        pagination={false}
        rowKey={(r) => r[0]}
        dataSource={COLUMN_MAPPING}
        style={{ marginBottom: 16 }}
        columns={[
          { title: t('products:import.column'), render: (_: unknown, r: [string, string]) => <code>{r[0]}</code> },
          { title: t('products:import.field'), render: (_: unknown, r: [string, string]) => t(`products:import.fields.${r[1]}`) },
          { title: '', render: () => <CheckOutlined style={{ color: '#389e0d' }} /> },
        ]}
        data-testid="import-mapping"
      />
      <Alert
        type={preview.errors.length ? 'warning' : 'success'}
        showIcon
        style={{ marginBottom: 16 }}
        title={t('products:import.summary', { products: preview.data.products, rows: preview.data.rows.length, errors: preview.errors.length })}
      />
      <Table
        size="small"
        rowKey="row"
        dataSource={preview.data.rows.slice(0, 20)}
        pagination={false}
        style={{ marginBottom: 16 }}
        scroll={{ x: 640 }}
        columns={[
          { title: t('products:import.row'), dataIndex: 'row' },
          { title: t('products:import.fields.code'), dataIndex: 'code' },
          { title: t('products:import.fields.name'), dataIndex: 'name' },
          { title: t('products:import.fields.skuCode'), dataIndex: 'skuCode' },
          { title: t('products:import.fields.variant'), dataIndex: 'variant', render: (v: string) => (v ? <Tag>{v}</Tag> : null) },
          { title: t('products:import.fields.price'), dataIndex: 'price', align: 'right' as const },
        ]}
      />
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t(problem)} /> : null}
      <Form layout="inline">
        <Form.Item label={t('products:fields.category')} required>
          <Select
            style={{ minWidth: 240 }}
            value={categoryId}
            onChange={setCategoryId}
            options={(categories?.data ?? []).map((c) => ({ value: c.id, label: i18n.language === 'en' ? c.nameEn : c.name }))}
            data-testid="import-category"
          />
        </Form.Item>
        <Space>
          <Button onClick={() => navigate(upload)}>{t('common:actions.back')}</Button>
          <Button type="primary" loading={isLoading} onClick={() => void start()} disabled={preview.data.products === 0} data-testid="import-start">
            {t('products:import.start', { count: preview.data.products })}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
