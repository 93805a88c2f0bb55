import { useState, type HTMLAttributes } from 'react';
import { Alert, Button, Card, Col, Empty, Form, Input, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { CalculatorOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useCheck } from '@/shared/form/useCheck';
import { showServerErrors } from '@/shared/form/serverErrors';
import { formatBaht } from '@/shared/money';
import { useCan } from '@/shared/useCan';
import { LOGISTIC_EDIT, useGetRateTableQuery, useShippingRatesMutation, type RatesBody, type ServiceRateBody } from './api';
import { carrierName, cheapest, checkSide, checkWeight, kgText, rateReasonKeys, ratesBody, type RatesValues } from './logistics';
import { RateTableCard } from './RateTableCard';
import { notifyRefusal } from '@/shared/refusal';

const SIDES = ['length', 'width', 'height'] as const;

/** /setting/shipping-rate (SPEC §1, §9): the international calculator. A parcel's price to a
 * country with each of the eight international services, from the store's rate table: the
 * zone and the price, or why the service cannot take it; the cheapest one marked. Any member
 * may price a parcel; the owner and logistic.storeChannel.* also manage the table here. A
 * sample table says so, on the screen and in every answer. */
export default function ShippingRatePage() {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const canEdit = useCan(LOGISTIC_EDIT);
  const table = useGetRateTableQuery();
  const [price, { isLoading }] = useShippingRatesMutation();
  const [form] = Form.useForm<RatesValues>();
  const rule = useCheck();
  const [answer, setAnswer] = useState<{ body: RatesBody; country: string } | null>(null);
  const countries = table.data?.countries ?? [];
  const sample = answer ? answer.body.isSample : Boolean(table.data?.isSample);
  const best = answer ? cheapest(answer.body.data) : null;
  const baht = (v: string) => t('common:money.baht', { amount: formatBaht(v) });

  const submit = async (v: RatesValues) => {
    const body = ratesBody(v);
    try {
      const r = await price({ ratesInput: body }).unwrap();
      setAnswer({ body: r, country: body.country });
    } catch (e) {
      if (!showServerErrors(e, form, t, { ns: 'logistics', rename: { dimensions: 'length' } })) notifyRefusal(e, t, 'logistics');
    }
  };

  const countryName = (code: string) => {
    const c = countries.find((x) => x.code === code);
    return c ? `${c.name || c.code} (${c.code})` : code;
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card data-testid="shipping-rate">
        <div className="bo-page-head">
          <h1>{t('logistics:rates.title')}</h1>
        </div>
        <Typography.Paragraph type="secondary">{t('logistics:rates.hint')}</Typography.Paragraph>
        {sample ? (
          <Alert
            type="warning"
            showIcon
            title={t('logistics:rates.sampleTitle')}
            description={t('logistics:rates.sampleHint')}
            style={{ marginBottom: 16 }}
            data-testid="rates-sample"
          />
        ) : null}
        {table.data && !table.data.loaded ? (
          <Empty description={t(canEdit ? 'logistics:rates.noTableEditor' : 'logistics:rates.noTable')} data-testid="rates-no-table" />
        ) : (
          <Form
            form={form}
            layout="vertical"
            onFinish={(v) => void submit(v)}
            initialValues={{ weight: '1' }}
            requiredMark={false}
            data-testid="rates-form"
          >
            <Row gutter={12} align="top">
              <Col xs={24} md={8}>
                <Form.Item name="country" label={t('logistics:rates.country')} rules={[{ required: true, message: t('common:validation.country') }]}>
                  <Select
                    loading={table.isFetching}
                    placeholder={t('logistics:rates.countryPlaceholder')}
                    options={countries.map((c) => ({ value: c.code, label: countryName(c.code), search: `${c.code} ${c.name}`.toLowerCase() }))}
                    showSearch={{ filterOption: (input, option) => Boolean(option?.search.includes(input.trim().toLowerCase())) }}
                    data-testid="rates-country"
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={4}>
                <Form.Item name="weight" label={t('logistics:rates.weight')} rules={[rule((v) => checkWeight(v)?.replace(/^common:/, '') ?? null)]}>
                  <Input inputMode="decimal" suffix={t('logistics:brackets.kg')} data-testid="rates-weight" />
                </Form.Item>
              </Col>
              {SIDES.map((side) => (
                <Col xs={8} md={3} key={side}>
                  <Form.Item name={side} label={t(`logistics:rates.${side}`)} rules={[rule((v) => checkSide(v))]}>
                    <Input inputMode="numeric" suffix={t('logistics:rates.cm')} data-testid={`rates-${side}`} />
                  </Form.Item>
                </Col>
              ))}
              <Col xs={24} md={3}>
                <Form.Item label=" " colon={false}>
                  <Button type="primary" htmlType="submit" icon={<CalculatorOutlined />} loading={isLoading} block data-testid="rates-run">
                    {t('logistics:rates.run')}
                  </Button>
                </Form.Item>
              </Col>
            </Row>
            <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
              {t('logistics:rates.volumetricHint')}
            </Typography.Paragraph>
          </Form>
        )}
        {answer ? (
          <>
            <Space wrap size={[16, 4]} style={{ marginBottom: 8 }} data-testid="rates-summary">
              <Typography.Text strong>{countryName(answer.country)}</Typography.Text>
              <Typography.Text>{t('logistics:rates.chargeable', { kg: kgText(answer.body.chargeableWeight) })}</Typography.Text>
              {answer.body.label ? <Typography.Text type="secondary">{t('logistics:rates.tableLabel', { label: answer.body.label })}</Typography.Text> : null}
            </Space>
            <Table<ServiceRateBody>
              rowKey="service"
              size="middle"
              pagination={false}
              dataSource={answer.body.data}
              scroll={{ x: 560 }}
              onRow={(r) => (r.service === best ? ({ style: { background: '#f6ffed' }, 'data-testid': 'rates-cheapest' } as HTMLAttributes<HTMLElement>) : {})}
              data-testid="rates-table"
              columns={[
                {
                  title: t('logistics:rates.service'),
                  key: 'service',
                  render: (_: unknown, r: ServiceRateBody) => <Typography.Text strong={r.service === best}>{carrierName(r.provider, r.service, i18n.language)}</Typography.Text>,
                },
                {
                  title: t('logistics:rates.zone'),
                  key: 'zone',
                  width: 110,
                  render: (_: unknown, r: ServiceRateBody) => (r.available && r.zone ? t('logistics:rates.zoneValue', { zone: r.zone }) : <Typography.Text type="secondary">{t('logistics:rates.none')}</Typography.Text>),
                },
                {
                  title: t('logistics:rates.price'),
                  key: 'price',
                  align: 'right' as const,
                  render: (_: unknown, r: ServiceRateBody) =>
                    r.available ? (
                      <Space size={6} wrap={false}>
                        {r.service === best ? <Tag color="green">{t('logistics:rates.cheapest')}</Tag> : null}
                        <Typography.Text strong>{baht(r.price)}</Typography.Text>
                      </Space>
                    ) : (
                      <Tag data-testid={`rates-reason-${r.service}`}>{t(rateReasonKeys(r.reason))}</Tag>
                    ),
                },
              ]}
            />
          </>
        ) : null}
      </Card>
      {canEdit ? <RateTableCard onReplaced={() => setAnswer(null)} /> : null}
    </Space>
  );
}
