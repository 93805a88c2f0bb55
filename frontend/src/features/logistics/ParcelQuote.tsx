// "Test a parcel": what each active channel of the warehouse would charge for a parcel, by
// the logistics service's one pricing rule, so the owner can check the prices just set.
import { useState } from 'react';
import { Button, Card, Col, Form, Input, Row, Switch, Table, Tag, Typography } from 'antd';
import { CalculatorOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useCheck } from '@/shared/form/useCheck';
import { checkPrice, cleanAmount, formatBaht } from '@/shared/money';
import { useQuoteShippingMutation, type Quote } from './api';
import { carrierName, checkWeight, kgText, reasonKey } from './logistics';
import { notifyRefusal } from '@/shared/refusal';

interface Values {
  weight: string;
  orderTotal?: string;
  country?: string;
  cod: boolean;
}

export function ParcelQuote({ warehouseId }: { warehouseId: number | undefined }) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const [form] = Form.useForm<Values>();
  const rule = useCheck();
  const [quote, { isLoading }] = useQuoteShippingMutation();
  const [rows, setRows] = useState<Quote[] | null>(null);
  const baht = (v: string) => t('common:money.baht', { amount: formatBaht(v) });

  const submit = async (v: Values) => {
    if (!warehouseId) return;
    try {
      const r = await quote({
        quoteInput: {
          warehouseId,
          weight: v.weight.trim(),
          orderTotal: cleanAmount(v.orderTotal) || undefined,
          country: (v.country ?? '').trim().toUpperCase() || undefined,
          cod: v.cod,
        },
      }).unwrap();
      setRows(r.data);
    } catch (e) {
      notifyRefusal(e, t, 'logistics');
    }
  };

  const weightRule = (v: string) => {
    const key = checkWeight(v);
    return key ? key.replace(/^common:/, '') : null;
  };

  return (
    <Card size="small" title={t('logistics:quote.title')} style={{ marginTop: 16 }} data-testid="parcel-quote">
      <Typography.Paragraph type="secondary">{t('logistics:quote.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} initialValues={{ cod: false, weight: '1' }} requiredMark={false}>
        <Row gutter={12} align="bottom">
          <Col xs={12} md={5}>
            <Form.Item name="weight" label={t('logistics:quote.weight')} rules={[rule(weightRule)]}>
              <Input inputMode="decimal" suffix={t('logistics:brackets.kg')} data-testid="quote-weight" />
            </Form.Item>
          </Col>
          <Col xs={12} md={5}>
            <Form.Item name="orderTotal" label={t('logistics:quote.orderTotal')} rules={[rule((v) => checkPrice(v, 100_000_000), true)]}>
              <Input inputMode="decimal" suffix={t('common:money.unit')} data-testid="quote-total" />
            </Form.Item>
          </Col>
          <Col xs={12} md={5}>
            <Form.Item name="country" label={t('logistics:quote.country')} extra={t('logistics:quote.countryHint')}>
              <Input maxLength={2} placeholder={t('logistics:quote.countryPlaceholder')} data-testid="quote-country" />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item name="cod" label={t('logistics:quote.cod')} valuePropName="checked">
              <Switch data-testid="quote-cod" />
            </Form.Item>
          </Col>
          <Col xs={24} md={5}>
            <Form.Item>
              <Button htmlType="submit" icon={<CalculatorOutlined />} loading={isLoading} disabled={!warehouseId} block data-testid="quote-run">
                {t('logistics:quote.run')}
              </Button>
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {rows ? (
        <Table<Quote>
          rowKey={(q) => q.storeChannel.id}
          size="small"
          pagination={false}
          dataSource={rows}
          locale={{ emptyText: t('logistics:quote.none') }}
          scroll={{ x: 560 }}
          data-testid="quote-table"
          columns={[
            { title: t('logistics:fields.name'), render: (_: unknown, q: Quote) => q.storeChannel.name },
            { title: t('logistics:fields.provider'), render: (_: unknown, q: Quote) => carrierName(q.storeChannel.provider, q.storeChannel.providerName, i18n.language) },
            { title: t('logistics:quote.chargeable'), render: (_: unknown, q: Quote) => t('logistics:quote.kg', { kg: kgText(q.chargeableWeight) }) },
            {
              title: t('logistics:quote.price'),
              align: 'right' as const,
              render: (_: unknown, q: Quote) => (q.available ? <Typography.Text strong>{baht(q.price)}</Typography.Text> : <Tag>{t(reasonKey(q.reason))}</Tag>),
            },
          ]}
        />
      ) : null}
    </Card>
  );
}
