// A marketplace order's buyers' returns, as the platform reports them: where each stands (its
// stage and the platform's own word), whether the buyer is refunded without sending goods
// back, the reason, the refund and the return parcel's tracking number, and what comes back.
// Once the goods are back, staff who may change orders and approve goods receipts count them
// line by line (fit to sell again, defective) and put them back in stock: the order's return
// then shows the goods receipt that did it (approved, in the stock screens), once.
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import { ImportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { formatDateTime } from '@/shared/i18n/i18n';
import { formatBaht } from '@/shared/money';
import { useCan } from '@/shared/useCan';
import { useReceiveReturnMutation, type OrderBody, type OrderReturnBody, type ReturnLineBody } from './api';
import { reasonKey } from './refusal';
import { RETURN_RECEIVE } from './routes';

/** A stage's colour: waiting on someone, on its way, back, done, closed. */
export const STAGE_COLOURS: Record<string, string> = {
  requested: 'gold',
  accepted: 'blue',
  shipped_back: 'geekblue',
  delivered_back: 'purple',
  refunded: 'green',
  closed: 'default',
};

/** The longest note staff add to the receipt. */
export const NOTE_MAX = 300;

/** The lines goods may come back on: those of our SKUs. */
export const receivableLines = (r: Pick<OrderReturnBody, 'lines'>) => r.lines.filter((l) => l.itemId > 0 && l.skuId > 0 && l.quantity > 0);

/** What a count may be: good and defective together no more than the line returns, and
 * something back in all. Keys of the first broken rule, or none. */
export function countProblems(lines: Pick<ReturnLineBody, 'itemId' | 'quantity'>[], counts: Record<number, { good?: number | null; defective?: number | null }>): { itemId: number | null; key: string } | null {
  let total = 0;
  for (const l of lines) {
    const c = counts[l.itemId] ?? {};
    const n = (c.good ?? 0) + (c.defective ?? 0);
    if ((c.good ?? 0) < 0 || (c.defective ?? 0) < 0 || n > l.quantity) return { itemId: l.itemId, key: 'orders:returns.receive.tooMany' };
    total += n;
  }
  return total > 0 ? null : { itemId: null, key: 'orders:returns.receive.nothing' };
}

interface CountValues {
  counts: Record<number, { good?: number | null; defective?: number | null }>;
  note?: string;
}

/** Counting what came back, then putting it back in stock. */
function ReceiveModal({ o, r, onClose }: { o: OrderBody; r: OrderReturnBody; onClose: () => void }) {
  const { t } = useTranslation(['orders', 'common', 'codes']);
  const [form] = Form.useForm<CountValues>();
  const [receive, { isLoading }] = useReceiveReturnMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const lines = receivableLines(r);
  const submit = async (v: CountValues) => {
    const counts = v.counts ?? {};
    const wrong = countProblems(lines, counts);
    if (wrong) {
      setProblem(t(wrong.key));
      return;
    }
    setProblem(null);
    try {
      const done = await receive({
        id: o.id,
        returnId: r.id,
        receiveReturnInput: {
          lines: lines.map((l) => ({ itemId: l.itemId, good: counts[l.itemId]?.good ?? 0, defective: counts[l.itemId]?.defective ?? 0 })).filter((c) => c.good + c.defective > 0),
          note: v.note?.trim() ?? '',
        },
      }).unwrap();
      const codes = done.returns.find((x) => x.id === r.id)?.receipts.map((x) => x.code).join(', ') ?? '';
      notifySuccess(t('orders:returns.receive.done', { codes }));
      onClose();
    } catch (e) {
      // A line's count is named by its place among the lines sent.
      const sentLines = lines.filter((l) => (counts[l.itemId]?.good ?? 0) + (counts[l.itemId]?.defective ?? 0) > 0);
      const field = apiError(e)?.fields?.[0]?.field ?? '';
      const at = /^lines\[(\d+)\]/.exec(field);
      if (at && sentLines[Number(at[1])]) {
        form.setFields([{ name: ['counts', sentLines[Number(at[1])].itemId, 'good'], errors: [t('orders:returns.receive.tooMany')] }]);
        return;
      }
      if (showServerErrors(e, form, t, { only: ['note'], ns: 'orders' })) return;
      const code = apiError(e)?.code;
      if (code) notifyError(t(reasonKey(code)));
    }
  };
  return (
    <Modal
      open
      title={t('orders:returns.receive.title', { reference: r.reference })}
      okText={t('orders:returns.receive.ok')}
      cancelText={t('common:actions.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={isLoading}
      okButtonProps={{ 'data-testid': 'return-receive-ok' } as Record<string, string>}
      destroyOnHidden
      width={640}
    >
      <Typography.Paragraph type="secondary">{t('orders:returns.receive.hint')}</Typography.Paragraph>
      <Form<CountValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        data-testid="return-count"
        initialValues={{ counts: Object.fromEntries(lines.map((l) => [l.itemId, { good: l.quantity, defective: 0 }])) }}
      >
        <Table<ReturnLineBody>
          rowKey="itemId"
          size="small"
          pagination={false}
          dataSource={lines}
          columns={[
            { title: t('orders:returns.line'), key: 'name', render: (_, l) => <Space orientation="vertical" size={0}><span>{l.name}</span><Typography.Text type="secondary">{l.skuCode}</Typography.Text></Space> },
            { title: t('orders:returns.quantity'), dataIndex: 'quantity', width: 90 },
            {
              title: t('orders:returns.good'),
              key: 'good',
              width: 120,
              render: (_, l) => (
                <Form.Item name={['counts', l.itemId, 'good']} style={{ margin: 0 }}>
                  <InputNumber min={0} max={l.quantity} precision={0} data-testid={`return-good-${l.itemId}`} />
                </Form.Item>
              ),
            },
            {
              title: t('orders:returns.defective'),
              key: 'defective',
              width: 120,
              render: (_, l) => (
                <Form.Item name={['counts', l.itemId, 'defective']} style={{ margin: 0 }}>
                  <InputNumber min={0} max={l.quantity} precision={0} data-testid={`return-defective-${l.itemId}`} />
                </Form.Item>
              ),
            },
          ]}
        />
        {problem ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={problem} data-testid="return-count-problem" /> : null}
        <Form.Item name="note" label={t('orders:returns.receive.note')} style={{ marginTop: 16 }} rules={[{ max: NOTE_MAX, message: t('common:validation.too_long') }]}>
          <Input.TextArea rows={2} showCount maxLength={NOTE_MAX} data-testid="return-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ReturnView({ o, r, sid, canReceive }: { o: OrderBody; r: OrderReturnBody; sid: string; canReceive: boolean }) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const [receiving, setReceiving] = useState(false);
  const received = (l: ReturnLineBody) => (r.receivedAt ? t('orders:returns.back', { good: l.good, defective: l.defective }) : '—');
  return (
    <div data-testid={`return-${r.id}`} style={{ marginBottom: 16 }}>
      <Space wrap style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('orders:returns.reference', { reference: r.reference })}</Typography.Text>
        <Tag color={STAGE_COLOURS[r.stage] ?? 'default'} data-testid={`return-stage-${r.id}`}>
          {t(`orders:returns.stages.${r.stage}`, { defaultValue: r.stage })}
        </Tag>
        {r.refundOnly ? <Tag color="cyan">{t('orders:returns.refundOnly')}</Tag> : null}
        {r.statusWord ? <Typography.Text type="secondary">{r.statusWord}</Typography.Text> : null}
      </Space>
      <Descriptions size="small" column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={t('orders:returns.refund')}>{t('common:money.baht', { amount: formatBaht(r.refundAmount) })}</Descriptions.Item>
        <Descriptions.Item label={t('orders:returns.reason')}>{r.reason || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('orders:returns.tracking')}>{r.trackingNo || '—'}</Descriptions.Item>
      </Descriptions>
      <Table<ReturnLineBody>
        rowKey={(l) => `${l.itemId}-${l.skuId}-${l.name}`}
        size="small"
        pagination={false}
        dataSource={r.lines}
        scroll={{ x: 560 }}
        columns={[
          { title: t('orders:returns.line'), key: 'name', render: (_, l) => <Space orientation="vertical" size={0}><span>{l.name}</span>{l.skuCode ? <Typography.Text type="secondary">{l.skuCode}</Typography.Text> : null}</Space> },
          { title: t('orders:returns.quantity'), dataIndex: 'quantity', width: 90 },
          { title: t('orders:returns.received'), key: 'back', width: 220, render: (_, l) => (l.skuId > 0 ? received(l) : <Typography.Text type="secondary">{t('orders:returns.noSku')}</Typography.Text>) },
        ]}
      />
      <Space wrap style={{ marginTop: 8 }}>
        {r.receipts.map((x) => (
          <Link key={x.goodsReceiptId} to={`/${sid}/stock-management-goods-receipt-detail/approved/${x.goodsReceiptId}`} data-testid={`return-receipt-${x.goodsReceiptId}`}>
            {t('orders:returns.receipt', { code: x.code })}
          </Link>
        ))}
        {r.receivedAt ? (
          <Typography.Text type="secondary" data-testid={`return-received-${r.id}`}>
            {t('orders:returns.receivedAt', { at: formatDateTime(r.receivedAt, i18n.language) })}
          </Typography.Text>
        ) : null}
        {r.receivable && canReceive ? (
          <Button icon={<ImportOutlined />} onClick={() => setReceiving(true)} data-testid={`return-receive-${r.id}`}>
            {t('orders:returns.receive.open')}
          </Button>
        ) : null}
      </Space>
      {receiving ? <ReceiveModal o={o} r={r} onClose={() => setReceiving(false)} /> : null}
    </div>
  );
}

/** An order's returns, oldest first. */
export function ReturnsCard({ o, sid, canEdit }: { o: OrderBody; sid: string; canEdit: boolean }) {
  const { t } = useTranslation(['orders']);
  const canApprove = useCan(RETURN_RECEIVE);
  if (o.returns.length === 0) return null;
  return (
    <Card title={t('orders:returns.title')} data-testid="order-returns">
      {o.returns.map((r) => (
        <ReturnView key={r.id} o={o} r={r} sid={sid} canReceive={canEdit && canApprove} />
      ))}
    </Card>
  );
}
