// The store's tracking-number ranges (the `tracking` tab of /setting/logistic): the numbers a
// carrier gave the store, handed out one by one to parcels, and how many are left. The owner
// and logistic.storeChannel.* register a range; the form shows the first and last numbers it
// will produce (UPU S10 for the postal provider: two letters, eight digits, a check digit,
// TH) before it is sent.
import { Alert, Button, Card, Col, Form, Input, Row, Select, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { notifySuccess } from '@/shared/dialogs/notify';
import { MSG } from '@/shared/form/rules';
import { useCheck } from '@/shared/form/useCheck';
import { useAddTrackingRangeMutation, type Carrier, type TrackingRangeRow } from './api';
import {
  carrierName,
  checkRange,
  checkRangePrefix,
  checkSerial,
  cleanPrefix,
  isPostal,
  RANGE_ERRORS,
  rangeBody,
  rangePreview,
  rangeProviders,
  type RangeValues,
} from './logistics';
import { showSaveRefusal } from '@/shared/refusal';

export function TrackingRanges({ rows, loading, carriers, canEdit }: { rows: TrackingRangeRow[]; loading: boolean; carriers: Carrier[]; canEdit: boolean }) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const name = (providerName: string) => carrierName(carriers.find((c) => c.providerName === providerName), providerName, i18n.language);

  const columns = [
    { title: t('logistics:fields.provider'), key: 'provider', render: (_: unknown, r: TrackingRangeRow) => name(r.providerName) },
    { title: t('logistics:tracking.prefix'), key: 'prefix', width: 90, render: (_: unknown, r: TrackingRangeRow) => r.prefix },
    { title: t('logistics:tracking.firstNumber'), key: 'first', render: (_: unknown, r: TrackingRangeRow) => <Typography.Text code>{r.firstNumber}</Typography.Text> },
    { title: t('logistics:tracking.lastNumber'), key: 'last', render: (_: unknown, r: TrackingRangeRow) => <Typography.Text code>{r.lastNumber}</Typography.Text> },
    {
      title: t('logistics:tracking.remaining'),
      key: 'remaining',
      align: 'right' as const,
      render: (_: unknown, r: TrackingRangeRow) =>
        r.remaining > 0 ? (
          t('logistics:tracking.remainingOf', { remaining: r.remaining.toLocaleString('en-US'), total: (r.lastSerial - r.firstSerial + 1).toLocaleString('en-US') })
        ) : (
          <Tag color="red">{t('logistics:tracking.usedUp')}</Tag>
        ),
    },
  ];

  return (
    <>
      <div className="bo-page-head">
        <Typography.Text type="secondary">{t('logistics:hints.tracking')}</Typography.Text>
      </div>
      {canEdit ? <RangeForm carriers={carriers} /> : null}
      <Table<TrackingRangeRow>
        rowKey="id"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('logistics:tracking.empty') }}
        scroll={{ x: 680 }}
        data-testid="range-table"
      />
    </>
  );
}

function RangeForm({ carriers }: { carriers: Carrier[] }) {
  const { t, i18n } = useTranslation(['logistics', 'common']);
  const [form] = Form.useForm<RangeValues>();
  const rule = useCheck();
  const [add, { isLoading }] = useAddTrackingRangeMutation();
  const providerName: string | undefined = Form.useWatch('providerName', form);
  const prefix: string | undefined = Form.useWatch('prefix', form);
  const first: string | undefined = Form.useWatch('first', form);
  const last: string | undefined = Form.useWatch('last', form);
  const providers = rangeProviders(carriers);
  const postal = isPostal(carriers.find((c) => c.providerName === providerName));
  const preview = providerName ? rangePreview(postal, { prefix, first, last }) : null;
  const option = (c: Carrier) => ({ value: c.providerName, label: carrierName(c, c.providerName, i18n.language) });

  const submit = async (v: RangeValues) => {
    try {
      const r = await add({ trackingRangeInput: rangeBody(v) }).unwrap();
      notifySuccess(t('logistics:tracking.added', { first: r.firstNumber, last: r.lastNumber }));
      form.resetFields(['first', 'last']);
    } catch (e) {
      showSaveRefusal(e, form, t, RANGE_ERRORS);
    }
  };

  return (
    <Card size="small" title={t('logistics:tracking.addTitle')} style={{ marginBottom: 16 }} data-testid="range-form-card">
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={{ prefix: '', first: '', last: '' }}
        requiredMark={false}
        data-testid="range-form"
      >
        <Row gutter={12} align="top">
          <Col xs={24} md={7}>
            <Form.Item name="providerName" label={t('logistics:fields.provider')} rules={[{ required: true, message: t(`common:${MSG.required}`) }]}>
              <Select
                placeholder={t('logistics:form.providerPlaceholder')}
                onChange={() => {
                  if (form.getFieldValue('prefix')) void form.validateFields(['prefix']);
                }}
                options={[
                  { label: t('logistics:types.domestic'), options: providers.filter((c) => c.shipmentType === 'domestic').map(option) },
                  { label: t('logistics:tracking.postalAbroad'), options: providers.filter((c) => c.shipmentType !== 'domestic').map(option) },
                ]}
                data-testid="range-provider"
              />
            </Form.Item>
          </Col>
          <Col xs={8} md={4}>
            <Form.Item
              name="prefix"
              label={t('logistics:tracking.prefix')}
              normalize={(v: string) => cleanPrefix(v)}
              rules={[rule((v) => checkRangePrefix(v, postal))]}
            >
              <Input maxLength={6} placeholder={postal ? t('logistics:tracking.prefixPostal') : undefined} data-testid="range-prefix" />
            </Form.Item>
          </Col>
          <Col xs={16} md={5}>
            <Form.Item name="first" label={t('logistics:tracking.first')} rules={[rule((v) => checkSerial(v, postal))]}>
              <Input inputMode="numeric" maxLength={12} data-testid="range-first" />
            </Form.Item>
          </Col>
          <Col xs={16} md={5}>
            <Form.Item
              name="last"
              label={t('logistics:tracking.last')}
              dependencies={['first']}
              rules={[rule((v) => checkSerial(v, postal) ?? checkRange(form.getFieldValue('first') ?? '', v, postal))]}
            >
              <Input inputMode="numeric" maxLength={12} data-testid="range-last" />
            </Form.Item>
          </Col>
          <Col xs={8} md={3}>
            <Form.Item label=" " colon={false}>
              <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={isLoading} block data-testid="range-save">
                {t('logistics:tracking.add')}
              </Button>
            </Form.Item>
          </Col>
        </Row>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginBottom: preview ? 8 : 0 }} data-testid="range-help">
        {t(postal || !providerName ? 'logistics:tracking.helpPostal' : 'logistics:tracking.helpOther')}
      </Typography.Paragraph>
      {preview ? (
        <Alert
          type="info"
          showIcon
          title={t('logistics:tracking.preview', { first: preview.first, last: preview.last })}
          description={t('logistics:tracking.previewCount', { count: preview.count, formatted: preview.count.toLocaleString('en-US') })}
          data-testid="range-preview"
        />
      ) : null}
    </Card>
  );
}
