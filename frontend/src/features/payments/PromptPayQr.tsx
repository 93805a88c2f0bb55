// A PromptPay account's QR as the payments service draws it (Thai QR Payment): without an
// amount the payer types one; with one, the payer's app fills it in. The gateway sends the
// QR as SVG text, shown here as an image.
import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Space, Spin, Typography } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { globalErrorKind } from '@/app/api/errors';
import { checkAmount, cleanAmount, formatBaht } from '@/shared/money';
import { usePromptpayQrQuery, type PaymentChannelRow } from './api';

/** The SVG text as an image source. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The QR of account `channelId`, with a field for the amount it asks (optional). */
export function PromptPayQrView({ channelId, size = 220 }: { channelId: number; size?: number }) {
  const { t } = useTranslation(['payments', 'common']);
  const [typed, setTyped] = useState('');
  const [amount, setAmount] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const qr = usePromptpayQrQuery({ id: channelId, amount });

  const apply = () => {
    const s = cleanAmount(typed);
    if (!s) {
      setProblem(null);
      setAmount(undefined);
      return;
    }
    const code = checkAmount(s);
    setProblem(code);
    if (!code) setAmount(s);
  };

  const failed = qr.isError && !globalErrorKind(qr.error as Parameters<typeof globalErrorKind>[0]);

  return (
    <Space orientation="vertical" align="center" style={{ width: '100%' }} data-testid="promptpay-qr">
      <div style={{ background: '#0e3d6b', color: '#fff', borderRadius: 6, padding: '4px 16px', fontWeight: 700 }}>{t('payments:qr.brand')}</div>
      <Spin spinning={qr.isFetching}>
        <div style={{ width: size, height: size, display: 'flex', alignItems: 'center', justifyContent: 'center', border: '1px solid #e5e7eb', borderRadius: 8, background: '#fff' }}>
          {qr.data ? (
            <img src={svgDataUrl(qr.data.svg)} alt={t('payments:qr.alt', { name: qr.data.accName })} width={size - 12} height={size - 12} data-testid="qr-image" />
          ) : (
            <QrcodeOutlined style={{ fontSize: 64, color: '#d9d9d9' }} />
          )}
        </div>
      </Spin>
      {failed ? <Alert type="error" showIcon title={t('payments:qr.failed')} /> : null}
      {qr.data ? (
        <Space orientation="vertical" align="center" size={0}>
          <Typography.Text strong data-testid="qr-name">
            {qr.data.accName}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="qr-id">
            {t('payments:qr.id', { id: qr.data.maskedId })}
          </Typography.Text>
          <Typography.Text data-testid="qr-amount">
            {qr.data.amount ? t('common:money.baht', { amount: formatBaht(qr.data.amount) }) : t('payments:qr.anyAmount')}
          </Typography.Text>
        </Space>
      ) : null}
      <Form layout="inline" onFinish={apply} style={{ justifyContent: 'center', rowGap: 8 }}>
        <Form.Item validateStatus={problem ? 'error' : undefined} help={problem ? t(`common:${problem}`) : undefined} style={{ marginInlineEnd: 8 }}>
          <Input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            inputMode="decimal"
            placeholder={t('payments:qr.amountPlaceholder')}
            suffix={t('common:money.unit')}
            style={{ width: 160 }}
            data-testid="qr-amount-input"
          />
        </Form.Item>
        <Button htmlType="submit" data-testid="qr-apply">
          {t('payments:qr.apply')}
        </Button>
      </Form>
    </Space>
  );
}

/** The QR of one PromptPay account in a dialog. */
export function PromptPayQrModal({ row, onClose }: { row: PaymentChannelRow | null; onClose: () => void }) {
  const { t } = useTranslation(['payments', 'common']);
  return (
    <Modal
      open={row !== null}
      title={t('payments:qr.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('payments:qr.close')}</Button>}
      destroyOnHidden
      width={380}
      data-testid="qr-modal"
    >
      {row ? <PromptPayQrView channelId={row.id} /> : null}
    </Modal>
  );
}
