import { useState } from 'react';
import { Alert, Button, Card, Select, Space, Table, Tabs, Tag, Typography, Upload } from 'antd';
import { CheckOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { formatDate, formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { notifySuccess } from '@/shared/dialogs/notify';
import { useReconcileFileMutation, type ReconcileBody, type StatementLineBody } from './api';
import { checkOrderImportFile } from './import/session';

const TABS = ['confident', 'ambiguous', 'unmatched', 'used'] as const;

/** A reason as a sentence. */
function useReason() {
  const { t } = useTranslation('orders');
  return (r: { code: string; values: Record<string, string> }) => t(`reconcile.reasons.${r.code}`, { ...r.values, defaultValue: r.code });
}

/** /order-payment-reconcile: a bank statement or a carrier's COD remittance report matched
 * to the store's open bills, each line with its reasons; the confident matches confirmed in
 * one step, an ambiguous one after choosing its bill. */
export default function ReconcilePage() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { storeId } = useParams();
  const [send, { isLoading }] = useReconcileFileMutation();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ReconcileBody | null>(null);
  const [problem, setProblem] = useState<string | string[] | null>(null);
  const [tab, setTab] = useState<(typeof TABS)[number]>('confident');
  const [selected, setSelected] = useState<number[]>([]);
  const [chosen, setChosen] = useState<Record<number, number>>({});
  const reason = useReason();
  const lng = i18n.language;

  const refusal = (e: unknown): string | string[] => {
    const err = apiError(e);
    const code = err?.fields?.[0]?.code ?? err?.code;
    if (code?.startsWith('import_') || code === 'statement_columns_not_found') return `orders:reconcile.errors.${code}`;
    return code ? [`orders:${code}`, `common:${code}`, 'common:errors.tryLater'] : 'common:errors.tryLater';
  };

  const show = (r: ReconcileBody) => {
    setResult(r);
    setSelected(r.data.lines.filter((l) => l.status === 'confident' && !l.confirmed).map((l) => l.row));
    setChosen({});
  };

  const choose = async (f: File) => {
    setProblem(null);
    setResult(null);
    const local = checkOrderImportFile(f.name, f.size);
    if (local) return setProblem(local);
    try {
      const r = await send({ file: f, dryRun: true, choices: [] }).unwrap();
      setFile(f);
      show(r);
      setTab(r.data.lines.some((l) => l.status === 'confident') ? 'confident' : 'ambiguous');
    } catch (e) {
      setProblem(refusal(e));
    }
  };

  const confirm = async (choices: { row: number; billId: number }[]) => {
    if (!file || choices.length === 0) return;
    setProblem(null);
    try {
      const r = await send({ file, dryRun: false, choices }).unwrap();
      show(r);
      notifySuccess(t('orders:reconcile.done', { count: r.data.confirmed }));
    } catch (e) {
      setProblem(refusal(e));
    }
  };

  const lines = result?.data.lines ?? [];
  const of = (s: string) => lines.filter((l) => l.status === s);
  const when = (l: StatementLineBody) => (l.dayOnly ? formatDate(l.at, lng) : formatDateTime(l.at, lng));
  const confidentOpen = of('confident').filter((l) => !l.confirmed && selected.includes(l.row));
  const ambiguousChosen = of('ambiguous').filter((l) => chosen[l.row]);

  const base = [
    { title: t('orders:reconcile.when'), key: 'at', width: 150, render: (_: unknown, l: StatementLineBody) => when(l) },
    { title: t('orders:reconcile.amount'), dataIndex: 'amount', key: 'amount', align: 'right' as const, width: 110, render: (v: string) => formatBaht(v) },
    { title: t('orders:reconcile.text'), key: 'text', render: (_: unknown, l: StatementLineBody) => l.tracking || l.text || '-' },
  ];
  const order = (l: StatementLineBody) => {
    const c = l.candidates.find((x) => x.billId === l.billId) ?? l.candidates[0];
    return c ? (
      <Link to={`/${storeId}/order-detail/${c.orderId}`} style={{ whiteSpace: 'nowrap' }}>
        {c.orderNo}
      </Link>
    ) : null;
  };
  const why = (l: StatementLineBody) => (
    <Space direction="vertical" size={0}>
      {l.reasons.map((r, i) => (
        <Typography.Text key={i} type={l.status === 'unmatched' ? 'danger' : undefined} data-testid="reconcile-reason">
          {reason(r)}
        </Typography.Text>
      ))}
      {l.refused ? <Typography.Text type="danger">{t([`orders:reasons.${l.refused}`, `orders:reconcile.refusals.${l.refused}`, 'common:errors.tryLater'])}</Typography.Text> : null}
    </Space>
  );
  const done = (l: StatementLineBody) => (l.confirmed ? <Tag color="green" data-testid="reconcile-confirmed">{t('orders:reconcile.confirmed')}</Tag> : null);

  return (
    <Card data-testid="reconcile-page">
      <div className="bo-page-head">
        <h1 style={{ margin: 0 }}>{t('orders:reconcile.title')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('orders:reconcile.hint')}</Typography.Paragraph>
      {problem ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t(problem)} data-testid="reconcile-error" /> : null}
      <Upload.Dragger
        accept=".csv,.xlsx"
        multiple={false}
        showUploadList={false}
        disabled={isLoading}
        beforeUpload={(f) => {
          void choose(f);
          return false;
        }}
        style={{ marginBottom: 16 }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <Typography.Paragraph>{t('orders:reconcile.drop')}</Typography.Paragraph>
        <Typography.Text type="secondary">{t('orders:reconcile.rules')}</Typography.Text>
      </Upload.Dragger>
      {result ? (
        <>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('orders:reconcile.summary', {
              kind: t(`orders:reconcile.kinds.${result.data.kind}`),
              lines: lines.length,
              confident: of('confident').length,
              ambiguous: of('ambiguous').length,
              unmatched: of('unmatched').length,
            })}
            description={result.errors.length ? t('orders:reconcile.unreadable', { rows: result.errors.map((e) => e.row).join(', ') }) : undefined}
            data-testid="reconcile-summary"
          />
          <Tabs
            activeKey={tab}
            onChange={(k) => setTab(k as (typeof TABS)[number])}
            items={TABS.map((k) => ({ key: k, label: <span data-testid={`reconcile-tab-${k}`}>{`${t(`orders:reconcile.tabs.${k}`)} (${of(k).length})`}</span> }))}
          />
          {tab === 'confident' ? (
            <>
              <Table<StatementLineBody>
                rowKey="row"
                size="small"
                pagination={false}
                dataSource={of('confident')}
                rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), getCheckboxProps: (l) => ({ disabled: l.confirmed }) }}
                data-testid="reconcile-confident"
                columns={[...base, { title: t('orders:reconcile.order'), key: 'order', render: (_: unknown, l) => order(l) }, { title: t('orders:reconcile.why'), key: 'why', render: (_: unknown, l) => why(l) }, { key: 'done', width: 110, render: (_: unknown, l) => done(l) }]}
              />
              <Button type="primary" icon={<CheckOutlined />} style={{ marginTop: 16 }} loading={isLoading} disabled={!confidentOpen.length} onClick={() => void confirm(confidentOpen.map((l) => ({ row: l.row, billId: l.billId ?? 0 })))} data-testid="reconcile-confirm">
                {t('orders:reconcile.confirm', { count: confidentOpen.length })}
              </Button>
            </>
          ) : null}
          {tab === 'ambiguous' ? (
            <>
              <Table<StatementLineBody>
                rowKey="row"
                size="small"
                pagination={false}
                dataSource={of('ambiguous')}
                data-testid="reconcile-ambiguous"
                columns={[
                  ...base,
                  { title: t('orders:reconcile.why'), key: 'why', render: (_: unknown, l) => why(l) },
                  {
                    title: t('orders:reconcile.choose'),
                    key: 'choose',
                    width: 240,
                    render: (_: unknown, l) =>
                      l.confirmed ? (
                        done(l)
                      ) : (
                        <Select
                          allowClear
                          style={{ width: '100%' }}
                          placeholder={t('orders:reconcile.choosePlaceholder')}
                          value={chosen[l.row]}
                          onChange={(v?: number) => setChosen((c) => ({ ...c, [l.row]: v as number }))}
                          options={l.candidates.map((c) => ({ value: c.billId, label: `${c.orderNo} · ${formatBaht(c.amount)}${c.evidence.length ? ` · ${c.evidence.map(reason).join(', ')}` : ''}` }))}
                        />
                      ),
                  },
                ]}
              />
              <Button type="primary" icon={<CheckOutlined />} style={{ marginTop: 16 }} loading={isLoading} disabled={!ambiguousChosen.length} onClick={() => void confirm(ambiguousChosen.map((l) => ({ row: l.row, billId: chosen[l.row] })))} data-testid="reconcile-confirm-chosen">
                {t('orders:reconcile.confirm', { count: ambiguousChosen.length })}
              </Button>
            </>
          ) : null}
          {tab === 'unmatched' || tab === 'used' ? (
            <Table<StatementLineBody>
              rowKey="row"
              size="small"
              pagination={false}
              dataSource={of(tab)}
              data-testid={`reconcile-${tab}`}
              columns={[...base, { title: t('orders:reconcile.why'), key: 'why', render: (_: unknown, l) => why(l) }]}
            />
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
