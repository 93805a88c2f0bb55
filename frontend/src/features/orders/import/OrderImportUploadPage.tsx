import { useState } from 'react';
import { Alert, Button, Card, Form, Select, Space, Steps, Table, Tabs, Tag, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { useListWarehousesQuery } from '@/features/stock/api';
import { showDialog } from '@/shared/dialogs/dialogs';
import { saveObjectUrl } from '@/shared/download';
import { formatBaht } from '@/shared/money';
import { useImportOrdersFileMutation, useImportTemplateFileMutation, useOrderChannelsQuery, type ImportedOrderBody, type OrderImportBody } from '../api';
import { channelName } from '../parts';
import { checkOrderImportFile, orderImport, reasonsByRow } from './session';

export function OrderImportSteps({ current }: { current: number }) {
  const { t } = useTranslation('orders');
  return <Steps current={current} style={{ marginBottom: 24 }} items={[{ title: t('import.steps.upload') }, { title: t('import.steps.preview') }, { title: t('import.steps.result') }]} />;
}

/** A column key's name in the user's language. */
export function useColumnName() {
  const { t } = useTranslation('orders');
  return (key: string) => t(`import.columns.${key}`, { defaultValue: key });
}

/** A problem's text in the user's language. */
export function useProblem() {
  const { t } = useTranslation(['orders', 'common']);
  return (code: string) => t([`orders:${code}`, `common:${code}`, 'orders:import.unknownProblem']);
}

/** Choose the warehouse and the file; the server reads and checks it (nothing is saved), the
 * preview shows the orders it makes and each bad row's reason, and importing makes them. */
export default function OrderImportUploadPage() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { storeId, saleChannel = '' } = useParams();
  const navigate = useNavigate();
  const { data: channels } = useOrderChannelsQuery();
  const { data: warehouses } = useListWarehousesQuery();
  const [read, { isLoading }] = useImportOrdersFileMutation();
  const [template] = useImportTemplateFileMutation();
  const [problem, setProblem] = useState<string | string[] | null>(null);
  const [preview, setPreview] = useState<OrderImportBody | null>(orderImport.preview);
  const [warehouseId, setWarehouseId] = useState<number | null>(orderImport.warehouseId);
  const column = useColumnName();
  const message = useProblem();
  const usable = (warehouses?.data ?? []).filter((w) => w.active);
  const chosen = warehouseId ?? usable.find((w) => w.isDefault)?.id ?? usable[0]?.id ?? null;

  if (channels && !channels.data.some((c) => c.code === saleChannel)) return <Navigate to={`/${storeId}/order-import-channel`} replace />;

  const fileProblem = (e: unknown): string | string[] => {
    const err = apiError(e);
    const code = err?.fields?.[0]?.code ?? err?.code;
    if (code?.startsWith('import_')) return `orders:import.errors.${code}`;
    if (code) return [`orders:${code}`, `common:${code}`];
    return 'common:errors.tryLater';
  };
  const choose = async (file: File) => {
    setProblem(null);
    const local = checkOrderImportFile(file.name, file.size);
    if (local) {
      setProblem(local);
      return;
    }
    if (!chosen) {
      setProblem('orders:import.chooseWarehouse');
      return;
    }
    try {
      const r = await read({ file, channel: saleChannel, warehouseId: chosen, dryRun: true }).unwrap();
      orderImport.file = file;
      orderImport.warehouseId = chosen;
      orderImport.preview = r;
      setPreview(r);
    } catch (e) {
      setProblem(fileProblem(e));
    }
  };

  const discard = async () => {
    const ok = await showDialog({ kind: 'warning', title: 'orders:import.discardTitle', message: 'orders:import.discardBody', confirm: 'orders:import.discard' });
    if (!ok) return;
    orderImport.file = null;
    orderImport.preview = null;
    setPreview(null);
  };

  const submit = async () => {
    if (!orderImport.file || !orderImport.warehouseId) return;
    try {
      const r = await read({ file: orderImport.file, channel: saleChannel, warehouseId: orderImport.warehouseId, dryRun: false }).unwrap();
      orderImport.result = r;
      orderImport.preview = null;
      navigate(`/${storeId}/order-import/${saleChannel}/result`);
    } catch (e) {
      setProblem(fileProblem(e));
    }
  };

  const downloadTemplate = async (lang: string) => {
    try {
      const url = await template({ lang }).unwrap();
      saveObjectUrl(url, lang === 'en' ? 'order-import-template.xlsx' : 'order-import-template-th.xlsx');
    } catch {
      setProblem('common:errors.tryLater');
    }
  };

  const channel = channelName(saleChannel, channels?.data, i18n.language);

  return (
    <Card title={`${t('orders:import.title')} · ${channel}`} data-testid="order-import-upload">
      <OrderImportSteps current={preview ? 1 : 0} />
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t(problem)} data-testid="import-error" /> : null}
      {preview ? (
        <Preview preview={preview} column={column} message={message} onDiscard={() => void discard()} onImport={() => void submit()} importing={isLoading} />
      ) : (
        <>
          <Form layout="vertical">
            <Form.Item label={t('orders:fields.warehouse')} required extra={t('orders:import.warehouseHint')}>
              <Select value={chosen ?? undefined} onChange={(v: number) => setWarehouseId(v)} options={usable.map((w) => ({ value: w.id, label: w.name }))} style={{ maxWidth: 360 }} data-testid="import-warehouse" />
            </Form.Item>
          </Form>
          <Space wrap style={{ marginBottom: 16 }}>
            <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate('th')} data-testid="import-template-th">
              {t('orders:import.templateTh')}
            </Button>
            <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate('en')} data-testid="import-template-en">
              {t('orders:import.templateEn')}
            </Button>
          </Space>
          <Upload.Dragger
            accept=".csv,.xlsx"
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
            <Typography.Paragraph>{t('orders:import.drop')}</Typography.Paragraph>
            <Typography.Text type="secondary">{t('orders:import.rules')}</Typography.Text>
          </Upload.Dragger>
        </>
      )}
    </Card>
  );
}

function Preview({
  preview,
  column,
  message,
  onDiscard,
  onImport,
  importing,
}: {
  preview: OrderImportBody;
  column: (k: string) => string;
  message: (c: string) => string;
  onDiscard: () => void;
  onImport: () => void;
  importing: boolean;
}) {
  const { t } = useTranslation(['orders', 'common']);
  const orders = preview.data.orders;
  const failed = preview.data.failedRows.length;
  const reasons = reasonsByRow(preview, column, message);
  return (
    <>
      <Alert
        type={failed ? 'warning' : 'success'}
        showIcon
        style={{ marginBottom: 16 }}
        title={t('orders:import.previewSummary', { count: orders.length, rows: preview.data.rows })}
        description={failed ? t('orders:import.previewFailed', { count: failed }) : t('orders:import.previewClean')}
        data-testid="import-summary"
      />
      <Tabs
        items={[
          {
            key: 'orders',
            label: `${t('orders:import.ordersTab')} (${orders.length})`,
            children: (
              <Table<ImportedOrderBody>
                rowKey="reference"
                size="small"
                dataSource={orders}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                data-testid="import-orders"
                columns={[
                  { title: column('reference'), dataIndex: 'reference' },
                  { title: column('name'), dataIndex: 'name', render: (v: string, o) => (<Space>{v || '-'}{o.addressComplete ? null : <Tag color="orange">{t('orders:import.addressIncomplete')}</Tag>}</Space>) },
                  { title: column('province'), dataIndex: 'province' },
                  { title: t('orders:import.lines'), dataIndex: 'lines', align: 'right' },
                  { title: column('quantity'), dataIndex: 'quantity', align: 'right' },
                  { title: t('orders:import.total'), dataIndex: 'total', align: 'right', render: (v: string) => formatBaht(v) },
                ]}
              />
            ),
          },
          {
            key: 'problems',
            label: <span data-testid="import-problems-tab">{`${t('orders:import.problemsTab')} (${failed})`}</span>,
            children: (
              <Table
                rowKey="row"
                size="small"
                dataSource={preview.data.failedRows.map((f) => ({ row: f.row, reason: reasons.get(f.row) ?? '' }))}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                data-testid="import-problems"
                columns={[
                  { title: t('orders:import.row'), dataIndex: 'row', width: 90 },
                  { title: t('orders:import.reason'), dataIndex: 'reason' },
                ]}
              />
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 16 }}>
        <Button onClick={onDiscard} disabled={importing} data-testid="import-discard">
          {t('orders:import.discard')}
        </Button>
        <Button type="primary" onClick={onImport} loading={importing} disabled={orders.length === 0} data-testid="import-confirm">
          {t('orders:import.confirm', { count: orders.length })}
        </Button>
      </Space>
    </>
  );
}
