// /setting/warehouse-fee (the owner's): what each of the store's warehouses charges the shop
// for its services — per goods-receipt line, per unit shelved or picked, per order packed, per
// parcel (box, material, shipping), per order (additional service) and a percent of the COD
// amount. A plan saved applies to the fees charged from then on; the service-fee dashboard
// adds them up.
import { useState } from 'react';
import { Alert, Button, Card, Col, Form, InputNumber, Modal, Row, Table, Typography, type ButtonProps } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { notifySuccess } from '@/shared/dialogs/notify';
import { useCheck } from '@/shared/form/useCheck';
import { formatDateTime } from '@/shared/i18n/i18n';
import { cleanAmount, formatBaht, toSatang } from '@/shared/money';
import { showSaveRefusal } from '@/shared/refusal';
import { useFeePlansQuery, useSaveFeePlanMutation, type FeePlanBody, type FeePlanInput } from './api';

/** A plan's rates, in the order the screen shows them; `codPercent` is a percent, the others baht. */
export const FEE_FIELDS = ['receiptLine', 'shelving', 'pick', 'pack', 'packaging', 'material', 'additional', 'shipping', 'codPercent'] as const;
export type FeeField = (typeof FEE_FIELDS)[number];
/** The form's values: the rates as typed (InputNumber in string mode), empty when cleared. */
export type FeeValues = Record<FeeField, string | number | null | undefined>;

/** A rate as typed, as the service checks it: required, 0 to `max` hundredths (satang, or
 * hundredths of a percent), at most two decimals; `code` says what is wrong otherwise. */
const upTo =
  (max: number, code: string) =>
  (v: string | number | null | undefined): string | null => {
    if (!cleanAmount(v)) return 'validation.required';
    const hundredths = toSatang(v);
    return hundredths === null || hundredths > max ? code : null;
  };

/** A price of the plan: 0 to 100,000 baht. */
export const checkFee = upTo(100_000_00, 'validation.fee');
/** The COD fee: 0 to 100 percent. */
export const checkPercent = upTo(100_00, 'validation.percent');

/** A rate as the service takes it, with two decimals, counted in hundredths (never through
 * floating point): 12.5 → "12.50", "3" → "3.00". */
export function twoDecimals(v: string | number | null | undefined): string {
  const n = toSatang(v) ?? 0;
  return `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}

/** The form's values as the service takes them. */
export function planInput(v: FeeValues): FeePlanInput {
  return Object.fromEntries(FEE_FIELDS.map((f) => [f, twoDecimals(v[f])])) as FeePlanInput;
}

/** The store's warehouses, each with what it charges, and the owner's edit of one. */
export default function FeePlanPage() {
  const { t, i18n } = useTranslation(['stock', 'common']);
  const lng = i18n.language;
  const plans = useFeePlansQuery();
  const [editing, setEditing] = useState<FeePlanBody | null>(null);

  return (
    <Card data-testid="fee-plans">
      <div className="bo-page-head">
        <h1>{t('stock:feePlans.title')}</h1>
      </div>
      <Alert type="info" showIcon title={t('stock:feePlans.hint')} style={{ marginBottom: 12 }} />
      {plans.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('stock:feePlans.failed')}
          action={<a onClick={() => void plans.refetch()}>{t('stock:feePlans.retry')}</a>}
          data-testid="fee-plans-failed"
        />
      ) : (
        <Table<FeePlanBody>
          rowKey="warehouseId"
          size="middle"
          loading={plans.isFetching}
          dataSource={plans.data?.data ?? []}
          pagination={false}
          locale={{ emptyText: t('stock:warehouses.empty') }}
          scroll={{ x: 1400 }}
          data-testid="fee-plan-table"
          columns={[
            {
              title: t('stock:fields.warehouse'),
              key: 'warehouse',
              fixed: 'left',
              render: (_: unknown, p) => (
                <Typography.Text strong data-testid={`fee-plan-${p.warehouseId}`}>
                  {p.warehouseName}
                </Typography.Text>
              ),
            },
            ...FEE_FIELDS.map((f) => ({
              title: t(`stock:feePlans.fields.${f}`),
              dataIndex: f,
              align: 'right' as const,
              render: (v: string) => (f === 'codPercent' ? `${twoDecimals(v)}%` : formatBaht(v)),
            })),
            {
              title: t('stock:feePlans.updatedAt'),
              dataIndex: 'updatedAt',
              render: (v: string) => (v ? <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v, lng)}</span> : <Typography.Text type="secondary">{t('stock:feePlans.notSet')}</Typography.Text>),
            },
            {
              title: t('stock:fields.actions'),
              key: 'actions',
              align: 'right',
              fixed: 'right',
              render: (_: unknown, p) => (
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(p)} data-testid={`fee-plan-${p.warehouseId}-edit`}>
                  {t('stock:feePlans.edit')}
                </Button>
              ),
            },
          ]}
        />
      )}
      <FeePlanModal plan={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}

/** One warehouse's rates, each with what it is charged for. */
function FeePlanModal({ plan, onClose }: { plan: FeePlanBody | null; onClose: () => void }) {
  const { t } = useTranslation(['stock', 'common']);
  const [save, { isLoading }] = useSaveFeePlanMutation();
  const [form] = Form.useForm<FeeValues>();
  const rule = useCheck();

  const submit = async (v: FeeValues) => {
    if (!plan) return;
    try {
      await save({ warehouseId: plan.warehouseId, feePlanInput: planInput(v) }).unwrap();
      notifySuccess(t('stock:feePlans.saved', { name: plan.warehouseName }));
      onClose();
    } catch (e) {
      showSaveRefusal(e, form, t, { ns: 'stock', only: [...FEE_FIELDS] });
    }
  };

  return (
    <Modal
      open={plan !== null}
      title={plan ? t('stock:feePlans.editTitle', { name: plan.warehouseName }) : undefined}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={isLoading}
      okText={t('common:actions.save')}
      cancelText={t('common:actions.cancel')}
      okButtonProps={{ 'data-testid': 'fee-plan-save' } as ButtonProps}
      width={720}
      destroyOnHidden
    >
      <Form<FeeValues>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        preserve={false}
        requiredMark={false}
        initialValues={plan ? Object.fromEntries(FEE_FIELDS.map((f) => [f, plan[f]])) : {}}
        data-testid="fee-plan-form"
      >
        <Row gutter={16}>
          {FEE_FIELDS.map((f) => {
            const percent = f === 'codPercent';
            return (
              <Col key={f} xs={24} md={12}>
                <Form.Item name={f} label={t(`stock:feePlans.fields.${f}`)} extra={t(`stock:feePlans.help.${f}`)} rules={[rule(percent ? checkPercent : checkFee)]}>
                  <InputNumber
                    stringMode
                    min="0"
                    max={percent ? '100' : '100000'}
                    precision={2}
                    step={percent ? '0.5' : '1'}
                    suffix={percent ? '%' : t('common:money.unit')}
                    style={{ width: '100%' }}
                    data-testid={`field-${f}`}
                  />
                </Form.Item>
              </Col>
            );
          })}
        </Row>
      </Form>
    </Modal>
  );
}
