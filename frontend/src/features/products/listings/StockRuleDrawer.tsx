import { useEffect } from 'react';
import { Alert, Button, Drawer, Form, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

import {
  useDeleteListingStockRuleMutation,
  useGetListingStockRuleQuery,
  useGetShopStockRuleQuery,
  useSetListingStockRuleMutation,
  useSetShopStockRuleMutation,
  type StockRuleBody,
} from '@/features/marketplaces/api';
import { useListWarehousesQuery } from '@/features/stock/api';
import { notifySuccess } from '@/shared/dialogs/notify';
import { showSaveRefusal } from '@/shared/refusal';

/** What a rule shows of `available` units: the same sums as the service's, to preview. */
export function preview(r: StockRuleBody, available: number): number {
  const left = Math.max(0, available - (r.hold ?? 0));
  if ((r.threshold ?? 0) > 0 && left < (r.threshold ?? 0)) return r.priority ? left : 0;
  const scaled = left * (r.percent ?? 100);
  const share = r.rounding === 'up' ? Math.ceil(scaled / 100) : r.rounding === 'nearest' ? Math.floor((scaled + 50) / 100) : Math.floor(scaled / 100);
  return Math.min(left, Math.max(0, share + (r.fixed ?? 0)));
}

/** A shop's stock rule (`listingId` undefined) or a listing's own, set by the owner: how much
 * of what is available its listings show. */
export function StockRuleDrawer({
  open,
  shopId,
  listingId,
  onClose,
}: {
  open: boolean;
  shopId: number;
  listingId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation(['products', 'common']);
  const [form] = Form.useForm<StockRuleBody>();
  const forShop = listingId === undefined;
  const shopRule = useGetShopStockRuleQuery({ id: shopId }, { skip: !open || !forShop });
  const listingRule = useGetListingStockRuleQuery({ id: listingId ?? 0 }, { skip: !open || forShop });
  const rule = forShop ? shopRule.data : listingRule.data;
  // Until the rule as kept has come, nothing can be typed (it would be overwritten).
  const loading = forShop ? shopRule.isLoading : listingRule.isLoading;
  const { data: warehouses } = useListWarehousesQuery();
  const [saveShop, savingShop] = useSetShopStockRuleMutation();
  const [saveListing, savingListing] = useSetListingStockRuleMutation();
  const [dropOwn] = useDeleteListingStockRuleMutation();
  const watched = Form.useWatch([], form) as StockRuleBody | undefined;

  useEffect(() => {
    if (open && rule) form.setFieldsValue(rule);
  }, [open, rule, form]);

  const save = async (v: StockRuleBody) => {
    try {
      if (forShop) await saveShop({ id: shopId, stockRuleBody: v }).unwrap();
      else await saveListing({ id: listingId!, stockRuleBody: v }).unwrap();
      notifySuccess(t('products:listings.rule.saved'));
      onClose();
    } catch (e) {
      showSaveRefusal(e, form, t, { ns: 'products' });
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size="large"
      title={t(forShop ? 'products:listings.rule.shopTitle' : 'products:listings.rule.listingTitle')}
      destroyOnHidden
      extra={
        <Button type="primary" onClick={() => form.submit()} loading={savingShop.isLoading || savingListing.isLoading} disabled={loading} data-testid="rule-save">
          {t('common:actions.save')}
        </Button>
      }
    >
      {!forShop && rule && !rule.own ? <Alert type="info" showIcon title={t('products:listings.rule.followsShop')} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} layout="vertical" disabled={loading} onFinish={(v) => void save(v)} initialValues={{ percent: 100, fixed: 0, rounding: 'down', threshold: 0, hold: 0 }}>
        <Space wrap>
          <Form.Item name="percent" label={t('products:listings.rule.percent')} rules={[{ required: true, type: 'number', min: 0, max: 100 }]}>
            <InputNumber min={0} max={100} precision={0} suffix="%" data-testid="rule-percent" />
          </Form.Item>
          <Form.Item name="rounding" label={t('products:listings.rule.rounding')}>
            <Select
              style={{ width: 160 }}
              options={['down', 'up', 'nearest'].map((r) => ({ value: r, label: t(`products:listings.rule.roundings.${r}`) }))}
              data-testid="rule-rounding"
            />
          </Form.Item>
          <Form.Item name="fixed" label={t('products:listings.rule.fixed')} tooltip={t('products:listings.rule.fixedHint')}>
            <InputNumber precision={0} data-testid="rule-fixed" />
          </Form.Item>
        </Space>
        <Form.Item name="warehouseIds" label={t('products:listings.rule.warehouses')} tooltip={t('products:listings.rule.warehousesHint')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('products:listings.rule.shopWarehouse')}
            options={(warehouses?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
            data-testid="rule-warehouses"
          />
        </Form.Item>
        <Space wrap>
          <Form.Item name="hold" label={t('products:listings.rule.hold')} tooltip={t('products:listings.rule.holdHint')}>
            <InputNumber min={0} precision={0} data-testid="rule-hold" />
          </Form.Item>
          <Form.Item name="threshold" label={t('products:listings.rule.threshold')} tooltip={t('products:listings.rule.thresholdHint')}>
            <InputNumber min={0} precision={0} data-testid="rule-threshold" />
          </Form.Item>
        </Space>
        {forShop ? (
          <Form.Item name="priority" label={t('products:listings.rule.priority')} valuePropName="checked" tooltip={t('products:listings.rule.priorityHint')}>
            <Switch data-testid="rule-priority" />
          </Form.Item>
        ) : null}
        <Form.Item name="increaseOnly" label={t('products:listings.rule.increaseOnly')} valuePropName="checked" tooltip={t('products:listings.rule.increaseOnlyHint')}>
          <Switch data-testid="rule-increase-only" />
        </Form.Item>
      </Form>
      {watched ? (
        <Typography.Paragraph type="secondary" data-testid="rule-preview">
          {t('products:listings.rule.preview', { n: 10, shown: preview(watched, 10) })}
        </Typography.Paragraph>
      ) : null}
      {!forShop && rule?.own ? (
        <Button
          onClick={() =>
            void dropOwn({ id: listingId! })
              .unwrap()
              .then(() => {
                notifySuccess(t('products:listings.rule.dropped'));
                onClose();
              })
              .catch(() => undefined)
          }
          data-testid="rule-drop"
        >
          {t('products:listings.rule.useShop')}
        </Button>
      ) : null}
    </Drawer>
  );
}
