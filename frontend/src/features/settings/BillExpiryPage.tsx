import { useEffect } from 'react';
import { Alert, Button, Card, Form, InputNumber, Radio, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import { globalErrorKind } from '@/app/api/errors';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { showServerErrors } from '@/shared/form/serverErrors';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useCan } from '@/shared/useCan';
import { useBillExpireTypesQuery, useGetBillExpireQuery, useSetBillExpireMutation, type BillExpireBody } from './api';
import { SETTINGS_EDIT } from './routes';

interface Values {
  expiryType: string;
  days: number | null;
  hours: number | null;
  minutes: number | null;
  onExpiry: string;
}

/** A setting in words: "3 days", "2 hours 30 minutes", "24 hours after the bill is made". */
export function describeExpiry(s: Pick<BillExpireBody, 'expiryType' | 'days' | 'hours' | 'minutes'>, t: (k: string, o?: Record<string, unknown>) => string): string {
  switch (s.expiryType) {
    case 'by_day':
      return t('settings:billExpiry.describe.by_day', { count: s.days });
    case 'by_time':
      return t('settings:billExpiry.describe.by_time', { hours: s.hours, minutes: s.minutes });
    case 'next_day':
      return t('settings:billExpiry.describe.next_day');
    default:
      return t('settings:billExpiry.describe.no_expiry');
  }
}

/** /setting/bill-expiry: how long a bill stays payable and what happens to its order then.
 * A new choice applies to bills made from now on; earlier bills keep theirs (the history). */
export default function BillExpiryPage() {
  const { t, i18n } = useTranslation(['settings', 'common']);
  const { data: types } = useBillExpireTypesQuery();
  const { data, isLoading } = useGetBillExpireQuery();
  const [save, { isLoading: saving }] = useSetBillExpireMutation();
  const canEdit = useCan(SETTINGS_EDIT);
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('expiryType', form);

  useEffect(() => {
    if (!data) return;
    const c = data.current;
    form.setFieldsValue({ expiryType: c.expiryType, days: c.days || 1, hours: c.hours, minutes: c.minutes, onExpiry: c.onExpiry });
  }, [data, form]);

  const submit = async (v: Values) => {
    // The server's refusals of the last try go; its answer to this one decides.
    form.setFields((['days', 'hours', 'minutes'] as const).map((name) => ({ name, errors: [] })));
    try {
      await save({
        billExpireInput: {
          expiryType: v.expiryType,
          days: v.expiryType === 'by_day' ? String(v.days ?? '') : undefined,
          hours: v.expiryType === 'by_time' ? String(v.hours ?? 0) : undefined,
          minutes: v.expiryType === 'by_time' ? String(v.minutes ?? 0) : undefined,
          onExpiry: v.onExpiry,
        },
      }).unwrap();
      notifySuccess(t('settings:billExpiry.saved'));
    } catch (e) {
      if (!showServerErrors(e, form, t, { ns: 'settings' }) && !globalErrorKind(e as Parameters<typeof globalErrorKind>[0])) {
        notifyError(t('settings:billExpiry.failed'));
      }
    }
  };

  const history = data?.history ?? [];
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card loading={isLoading} data-testid="bill-expiry">
        <div className="bo-page-head">
          <h1>{t('settings:billExpiry.title')}</h1>
        </div>
        {data ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="bill-expiry-current"
            title={t('settings:billExpiry.current', { what: describeExpiry(data.current, t), action: t(`settings:billExpiry.actions.${data.current.onExpiry}`) })}
            description={data.current.startedAt ? t('settings:billExpiry.since', { date: formatDateTime(data.current.startedAt, i18n.language) }) : undefined}
          />
        ) : null}
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => void submit(v)}
          onValuesChange={(changed: Partial<Values>) => form.setFields((Object.keys(changed) as (keyof Values)[]).map((name) => ({ name, errors: [] })))}
          requiredMark={false}
          disabled={!canEdit}
          style={{ maxWidth: 640 }}
        >
          <Form.Item name="expiryType" label={t('settings:billExpiry.type')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Radio.Group data-testid="bill-expiry-type">
              <Space orientation="vertical">
                {(types?.types ?? []).map((k) => (
                  <Radio key={k} value={k} data-testid={`bill-expiry-${k}`}>
                    {t(`settings:billExpiry.types.${k}`)}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          {type === 'by_day' ? (
            <Form.Item name="days" label={t('settings:billExpiry.days')} rules={[{ required: true, message: t('common:validation.required') }]}>
              <InputNumber min={1} max={types?.maxDays ?? 30} precision={0} data-testid="field-days" />
            </Form.Item>
          ) : null}
          {type === 'by_time' ? (
            <Space wrap>
              <Form.Item name="hours" label={t('settings:billExpiry.hours')}>
                <InputNumber min={0} max={types?.maxHours ?? 72} precision={0} data-testid="field-hours" />
              </Form.Item>
              <Form.Item name="minutes" label={t('settings:billExpiry.minutes')}>
                <InputNumber min={0} max={59} precision={0} data-testid="field-minutes" />
              </Form.Item>
            </Space>
          ) : null}
          <Form.Item name="onExpiry" label={t('settings:billExpiry.onExpiry')} rules={[{ required: true, message: t('common:validation.required') }]}>
            <Radio.Group data-testid="bill-expiry-action">
              {(types?.actions ?? []).map((k) => (
                <Radio key={k} value={k} data-testid={`bill-expiry-${k}`}>
                  {t(`settings:billExpiry.actions.${k}`)}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
          <Typography.Paragraph type="secondary">{t('settings:billExpiry.appliesLater')}</Typography.Paragraph>
          {canEdit ? (
            <Button type="primary" htmlType="submit" loading={saving} data-testid="bill-expiry-save">
              {t('common:actions.save')}
            </Button>
          ) : null}
        </Form>
      </Card>
      <Card title={t('settings:billExpiry.history')}>
        <Table<BillExpireBody>
          rowKey="id"
          size="middle"
          pagination={false}
          dataSource={history}
          locale={{ emptyText: t('settings:billExpiry.noHistory') }}
          scroll={{ x: 520 }}
          data-testid="bill-expiry-history"
          columns={[
            { title: t('settings:billExpiry.type'), render: (_: unknown, h: BillExpireBody) => describeExpiry(h, t) },
            { title: t('settings:billExpiry.onExpiry'), render: (_: unknown, h: BillExpireBody) => t(`settings:billExpiry.actions.${h.onExpiry}`) },
            { title: t('settings:billExpiry.startedAt'), dataIndex: 'startedAt', render: (v: string) => formatDateTime(v, i18n.language) },
          ]}
        />
      </Card>
    </Space>
  );
}
