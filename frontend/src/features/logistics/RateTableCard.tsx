// The store's international rate table (decision 0015): one per store, replaced whole by an
// .xlsx file laid out as the template (sheets `zones` and `rates`); a file with any bad row
// changes nothing and each bad cell is listed by sheet, row and column. The sample can be
// loaded instead; it says it is one. Shown to the owner and logistic.storeChannel.* only.
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Space, Table, Tag, Typography, Upload } from 'antd';
import { DownloadOutlined, ExperimentOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { globalErrorKind } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import {
  useCatalogueQuery,
  useDownloadRateTableTemplateMutation,
  useGetRateTableQuery,
  useLoadSampleRateTableMutation,
  useUploadRateTableFileMutation,
  type RateTableBody,
} from './api';
import { carrierName, checkRateFile, messageKeys, rateTableProblems, type RowError } from './logistics';
import { notifyRefusal } from '@/shared/refusal';

type AnyError = Parameters<typeof globalErrorKind>[0];

export function RateTableCard({ onReplaced }: { onReplaced?: () => void }) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const table = useGetRateTableQuery();
  const { data: catalogue } = useCatalogueQuery({ shipmentType: 'international' });
  const [upload, { isLoading: uploading }] = useUploadRateTableFileMutation();
  const [loadSample, { isLoading: loadingSample }] = useLoadSampleRateTableMutation();
  const [download, { isLoading: downloading }] = useDownloadRateTableTemplateMutation();
  const [fileProblems, setFileProblems] = useState<string[]>([]);
  const [rows, setRows] = useState<RowError[]>([]);
  const data = table.data;

  const replaced = (r: RateTableBody, message: string) => {
    setFileProblems([]);
    setRows([]);
    notifySuccess(t(message, { countries: r.countries.length, rates: r.rateCount }));
    onReplaced?.();
  };

  const choose = async (file: File) => {
    setFileProblems([]);
    setRows([]);
    const local = checkRateFile(file.name, file.size);
    if (local) {
      setFileProblems([local]);
      return;
    }
    try {
      replaced(await upload({ file }).unwrap(), 'logistics:rateTable.uploaded');
    } catch (e) {
      if (globalErrorKind(e as AnyError)) return;
      const p = rateTableProblems(e);
      setFileProblems(p.file);
      setRows(p.rows);
    }
  };

  const onSample = async () => {
    if (data?.loaded && !data.isSample) {
      const ok = await showDialog({ kind: 'warning', title: 'logistics:rateTable.sampleTitle', message: 'logistics:rateTable.sampleConfirm', confirm: 'logistics:rateTable.loadSample' });
      if (!ok) return;
    }
    try {
      replaced(await loadSample().unwrap(), 'logistics:rateTable.sampleLoaded');
    } catch (e) {
      notifyRefusal(e, t, 'logistics');
    }
  };

  const onTemplate = async () => {
    try {
      await download().unwrap();
    } catch (e) {
      if (!globalErrorKind(e as AnyError)) notifyError(t('common:errors.tryLater'));
    }
  };

  const column = (c: string) => {
    const service = catalogue?.data.find((x) => x.providerName === c);
    return service ? carrierName(service, c, i18n.language) : t(`logistics:rateTable.columns.${c}`, { defaultValue: c });
  };

  return (
    <Card title={t('logistics:rateTable.title')} data-testid="rate-table">
      <Typography.Paragraph type="secondary">{t('logistics:rateTable.hint')}</Typography.Paragraph>
      {data && data.loaded ? (
        <Descriptions
          size="small"
          column={1}
          style={{ marginBottom: 16 }}
          data-testid="rate-table-info"
          items={[
            {
              key: 'label',
              label: t('logistics:rateTable.label'),
              children: (
                <Space size={6} wrap>
                  <span>{data.label || t('logistics:rateTable.noLabel')}</span>
                  {data.isSample ? <Tag color="orange">{t('logistics:rateTable.sampleTag')}</Tag> : null}
                </Space>
              ),
            },
            { key: 'uploadedAt', label: t('logistics:rateTable.uploadedAt'), children: formatDateTime(data.uploadedAt, i18n.language) },
            {
              key: 'countries',
              label: t('logistics:rateTable.countries', { count: data.countries.length }),
              children: (
                <Space size={[4, 4]} wrap>
                  {data.countries.map((c) => (
                    <Tag key={c.code}>{c.name ? `${c.code} · ${c.name}` : c.code}</Tag>
                  ))}
                </Space>
              ),
            },
            { key: 'rates', label: t('logistics:rateTable.rateCount'), children: t('logistics:rateTable.rows', { count: data.rateCount }) },
          ]}
        />
      ) : data ? (
        <Alert type="info" showIcon title={t('logistics:rateTable.none')} style={{ marginBottom: 16 }} data-testid="rate-table-none" />
      ) : null}
      <Space wrap>
        <Upload
          accept=".xlsx"
          multiple={false}
          showUploadList={false}
          disabled={uploading}
          beforeUpload={(file) => {
            void choose(file);
            return false;
          }}
        >
          <Button type="primary" icon={<UploadOutlined />} loading={uploading} data-testid="rate-table-upload">
            {t('logistics:rateTable.upload')}
          </Button>
        </Upload>
        <Button icon={<DownloadOutlined />} onClick={() => void onTemplate()} loading={downloading} data-testid="rate-table-template">
          {t('logistics:rateTable.template')}
        </Button>
        <Button icon={<ExperimentOutlined />} onClick={() => void onSample()} loading={loadingSample} data-testid="rate-table-sample">
          {t('logistics:rateTable.loadSample')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('logistics:rateTable.fileRules')}
      </Typography.Paragraph>
      {fileProblems.length > 0 || rows.length > 0 ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 16 }}
          title={rows.length > 0 ? t('logistics:rateTable.rowsRefused', { count: rows.length }) : t(messageKeys(fileProblems[0]))}
          description={rows.length > 0 ? t('logistics:rateTable.nothingChanged') : fileProblems.length > 1 ? fileProblems.slice(1).map((c) => t(messageKeys(c))).join(' · ') : t('logistics:rateTable.nothingChanged')}
          data-testid="rate-table-error"
        />
      ) : null}
      {rows.length > 0 ? (
        <Table<RowError & { key: number }>
          size="small"
          style={{ marginTop: 12 }}
          pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          dataSource={rows.map((r, key) => ({ ...r, key }))}
          scroll={{ x: 560 }}
          data-testid="rate-table-rows"
          columns={[
            { title: t('logistics:rateTable.sheet'), key: 'sheet', width: 140, render: (_: unknown, r: RowError) => t(`logistics:rateTable.sheets.${r.sheet}`, { defaultValue: r.sheet }) },
            { title: t('logistics:rateTable.row'), key: 'row', width: 80, align: 'right' as const, render: (_: unknown, r: RowError) => r.row },
            { title: t('logistics:rateTable.column'), key: 'column', width: 200, render: (_: unknown, r: RowError) => column(r.column) },
            { title: t('logistics:rateTable.problem'), key: 'problem', render: (_: unknown, r: RowError) => t(messageKeys(r.code)) },
          ]}
        />
      ) : null}
    </Card>
  );
}
