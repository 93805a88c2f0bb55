import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import { Button, Card, Checkbox, Drawer, Form, Modal, Progress, Radio, Space, Table, Tag, Typography } from 'antd';
import { DownloadOutlined, ExportOutlined, HistoryOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { apiError, globalErrorKind } from '@/app/api/errors';
import { useLive } from '@/app/realtime';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { EraRangePicker } from '@/shared/form/EraDatePicker';
import { formatDateTime, thailandToday } from '@/shared/i18n/i18n';
import { useLazyExportDownloadUrlQuery } from '@/features/reports/api';
import { useOrderReportsQuery, useProduceOrderReportMutation, type ExportBody } from './api';
import { COLUMNS } from './orders';

type ExportValues = { range: [Dayjs | null, Dayjs | null] | null; states: string[]; lang: 'th' | 'en' };

const EXPORT_COLOURS: Record<string, string> = { exporting: 'processing', exported: 'green', failed: 'red', expired: 'default' };

/** Asks for an export of a date range and states: the form, and its submission with every
 * refusal shown where it belongs (`onAsked` runs once the export is being built). */
function useExportForm(onAsked: () => void) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<ExportValues>();
  const [produce, { isLoading }] = useProduceOrderReportMutation();

  const submit = async (v: ExportValues) => {
    const [from, to] = v.range ?? [null, null];
    if (!from || !to) return;
    try {
      await produce({
        orderReportInput: { dateFrom: from.format('YYYY-MM-DD'), dateTo: to.format('YYYY-MM-DD'), orderState: v.states, lang: v.lang },
      }).unwrap();
      notifySuccess(t('orders:exports.asked'));
      onAsked();
    } catch (e) {
      const body = apiError(e);
      if (body?.code === 'no_data_for_export') {
        void showDialog({ kind: 'warning', title: 'orders:exports.noDataTitle', message: 'orders:exports.noData', cancel: false });
        return;
      }
      const field = body?.fields?.[0];
      if (field) {
        form.setFields([{ name: field.field.startsWith('order_states') ? 'states' : 'range', errors: [t([`orders:${field.code}`, `common:${field.code}`])] }]);
        return;
      }
      if (!globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) notifyError(t('orders:exports.failed'));
    }
  };

  const fields = (
    <Form<ExportValues>
      form={form}
      layout="vertical"
      initialValues={{ range: [thailandToday().startOf('month'), thailandToday()], states: [], lang: i18n.language === 'en' ? 'en' : 'th' }}
      onFinish={(v) => void submit(v)}
      data-testid="export-form"
    >
      <Form.Item
        name="range"
        label={t('orders:exports.range')}
        rules={[{ validator: (_r, v: ExportValues['range']) => (v?.[0] && v?.[1] ? Promise.resolve() : Promise.reject(new Error(t('common:validation.required')))) }]}
      >
        <EraRangePicker style={{ width: '100%', maxWidth: 420 }} data-testid="export-range" />
      </Form.Item>
      <Form.Item name="states" label={t('orders:exports.states')} extra={t('orders:exports.statesHint')}>
        <Checkbox.Group options={COLUMNS.map((c) => ({ value: c, label: t(`orders:states.${c}`) }))} data-testid="export-states" />
      </Form.Item>
      <Form.Item name="lang" label={t('orders:exports.lang')}>
        <Radio.Group
          options={[
            { value: 'th', label: t('orders:exports.langs.th') },
            { value: 'en', label: t('orders:exports.langs.en') },
          ]}
        />
      </Form.Item>
    </Form>
  );
  return { form, fields, isLoading };
}

/** The order list's export (SPEC §2 Reports: order, with export history; §7, §8): a date range
 * and states asked for, the spreadsheet built in the background, and the history of exports
 * with their progress, each downloaded while it is kept. */
export function ExportOrders() {
  const { t } = useTranslation(['orders', 'common']);
  const [asking, setAsking] = useState(false);
  const [history, setHistory] = useState(false);
  const { form, fields, isLoading } = useExportForm(() => {
    setAsking(false);
    setHistory(true);
  });

  return (
    <>
      <Button icon={<ExportOutlined />} onClick={() => setAsking(true)} data-testid="order-export">
        {t('orders:exports.button')}
      </Button>
      <Button icon={<HistoryOutlined />} onClick={() => setHistory(true)} data-testid="order-export-history">
        {t('orders:exports.history')}
      </Button>
      {asking ? (
        <Modal
          open
          title={t('orders:exports.title')}
          onCancel={() => setAsking(false)}
          onOk={() => form.submit()}
          okText={t('orders:exports.submit')}
          okButtonProps={{ loading: isLoading, id: 'export-submit' }}
          cancelText={t('common:actions.cancel')}
        >
          {fields}
        </Modal>
      ) : null}
      <Drawer open={history} onClose={() => setHistory(false)} title={t('orders:exports.history')} size={720} destroyOnHidden>
        {history ? <ExportHistory /> : null}
      </Drawer>
    </>
  );
}

/** The order report (SPEC §2 Reports: order, with its export history): the export asked for
 * on the page, and every export of the store below it. */
export function OrderReportPanel() {
  const { t } = useTranslation(['orders', 'common']);
  const { form, fields, isLoading } = useExportForm(() => undefined);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('orders:exports.title')} data-testid="order-report">
        {fields}
        <Button type="primary" icon={<ExportOutlined />} loading={isLoading} onClick={() => form.submit()} data-testid="export-submit">
          {t('orders:exports.submit')}
        </Button>
      </Card>
      <Card title={t('orders:exports.history')}>
        <ExportHistory />
      </Card>
    </Space>
  );
}

/** What an export holds, in words: its kind (and table) and how many orders or rows. */
function describe(e: ExportBody, t: (k: string | string[], o?: Record<string, unknown>) => string) {
  if (e.kind === 'orders') {
    const states = e.orderStates.length ? e.orderStates.map((s) => t(`orders:states.${s}`)).join(', ') : t('orders:exports.allStates');
    return `${t('orders:exports.count', { count: e.total })} · ${states}`;
  }
  const table = e.table ? ` (${t(`orders:exports.tables.${e.table}`, { defaultValue: e.table })})` : '';
  return `${t(`orders:exports.kinds.${e.kind}`, { defaultValue: e.kind })}${table} · ${t('orders:exports.rows', { count: e.total })}`;
}

/** The exports of the store the member may read, newest first; refreshed while one is being
 * built. A download follows a short-lived link, so the browser saves the file as it comes. */
export function ExportHistory() {
  const { t, i18n } = useTranslation(['orders', 'common', 'codes']);
  const [page, setPage] = useState(1);
  // Open only while looked at: the builds' progress arrives over the realtime socket (which
  // refreshes it); without the socket it is read every two seconds.
  const live = useLive();
  const { data, isFetching } = useOrderReportsQuery({ page, limit: 10 }, { pollingInterval: live ? 0 : 2000, skipPollingIfUnfocused: true });
  const [link, { isFetching: linking, originalArgs }] = useLazyExportDownloadUrlQuery();
  const lng = i18n.language;

  const save = async (e: ExportBody) => {
    try {
      const got = await link({ id: e.id }).unwrap();
      const a = document.createElement('a');
      a.href = `/api${got.url}`;
      a.download = got.fileName;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch {
      notifyError(t('orders:exports.downloadFailed'));
    }
  };

  return (
    <Table<ExportBody>
      rowKey="id"
      size="small"
      loading={isFetching && !data}
      dataSource={data?.data ?? []}
      data-testid="export-history"
      pagination={{ current: data?.page ?? page, total: data?.total ?? 0, pageSize: 10, onChange: setPage, showSizeChanger: false }}
      locale={{ emptyText: t('orders:exports.empty') }}
      columns={[
        {
          title: t('orders:exports.file'),
          key: 'file',
          render: (_: unknown, e: ExportBody) => (
            <Space orientation="vertical" size={0}>
              <Typography.Text strong>{e.fileName}</Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`export-${e.id}-what`}>
                {describe(e, t)}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('orders:exports.by', { name: e.exporter || '-', at: formatDateTime(e.createdAt, lng) })}
              </Typography.Text>
            </Space>
          ),
        },
        {
          title: t('orders:exports.stateTitle'),
          key: 'state',
          width: 170,
          render: (_: unknown, e: ExportBody) =>
            e.state === 'exporting' ? (
              <Progress percent={e.progress} size="small" data-testid={`export-${e.id}-progress`} />
            ) : (
              <Space orientation="vertical" size={0}>
                <Tag color={EXPORT_COLOURS[e.state] ?? 'default'} data-testid={`export-${e.id}-state`}>
                  {t(`orders:exports.stateLabels.${e.state}`, { defaultValue: e.state })}
                </Tag>
                {e.state === 'failed' && e.failure ? (
                  <Typography.Text type="danger" style={{ fontSize: 12 }}>
                    {t('orders:exports.failedBecause', { why: t(`codes:${e.failure}`, { defaultValue: e.failure }) })}
                  </Typography.Text>
                ) : null}
                {e.state === 'exported' && e.expiresAt ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('orders:exports.keptUntil', { at: formatDateTime(e.expiresAt, lng) })}
                  </Typography.Text>
                ) : null}
              </Space>
            ),
        },
        {
          title: '',
          key: 'download',
          width: 120,
          render: (_: unknown, e: ExportBody) =>
            e.state === 'exported' ? (
              <Button size="small" icon={<DownloadOutlined />} loading={linking && originalArgs?.id === e.id} onClick={() => void save(e)} data-testid={`export-${e.id}-download`}>
                {t('orders:exports.download')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}
