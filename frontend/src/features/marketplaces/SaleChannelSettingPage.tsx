import { useEffect } from 'react';
import { Alert, Button, Card, Descriptions, Form, Result, Select, Space, Spin, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { useListLogisticChannelsQuery } from '@/features/logistics/api';
import { accountLabel, useListStoreChannelsQuery } from '@/features/payments/api';
import { useListWarehousesQuery } from '@/features/stock/api';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { showSaveRefusal } from '@/shared/refusal';
import { useGetMarketplaceChannelQuery, useUpdateMarketplaceChannelMutation } from './api';
import { isOwnKind } from './marketplaces';
import OwnChannelPage from './OwnChannelPage';

interface SettingValues {
  warehouseId?: number;
  logisticChannelId?: number;
  paymentChannelId?: number;
  active: boolean;
}

const FIELDS = ['warehouseId', 'logisticChannelId', 'paymentChannelId'];

/** /sale-channel-setting/{saleChannel}/{storeChannelId} (SPEC §2, §3 Marketplace store
 * channel): a connected shop's warehouse (its orders take stock from it), shipping channel,
 * payment account and status. Shipping channels are those of the chosen warehouse. Opened
 * right after connecting (`?connected=1`), it says the shop is connected. For a social
 * network's or the website's code it is the store's own channel of that id instead. */
export default function SaleChannelSettingPage() {
  const { saleChannel } = useParams();
  // A store's own channel (a social network or the website) shares the path.
  return isOwnKind(saleChannel ?? '') ? <OwnChannelPage /> : <ShopSettingPage />;
}

function ShopSettingPage() {
  const { t, i18n } = useTranslation(['marketplaces', 'common']);
  const { storeId, storeChannelId } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(storeChannelId);
  const shop = useGetMarketplaceChannelQuery({ id });
  const warehouses = useListWarehousesQuery();
  const payments = useListStoreChannelsQuery({ limit: -1 });
  const [form] = Form.useForm<SettingValues>();
  const warehouseId = Form.useWatch('warehouseId', form);
  const shipping = useListLogisticChannelsQuery({ limit: -1, warehouseId, status: 'active' }, { skip: !warehouseId });
  const [update, { isLoading: saving }] = useUpdateMarketplaceChannelMutation();
  const list = `/${Number(storeId)}/sale-channel-list`;

  useEffect(() => {
    const s = shop.data;
    if (!s) return;
    const some = (n: number) => (n > 0 ? n : undefined);
    form.setFieldsValue({
      warehouseId: some(s.warehouseId),
      logisticChannelId: some(s.logisticChannelId),
      paymentChannelId: some(s.paymentChannelId),
      active: s.status === 'active',
    });
  }, [shop.data, form]);

  if (shop.isError) {
    return (
      <Result
        status="404"
        title={t('codes:marketplace_channel_not_found')}
        extra={<Button onClick={() => navigate(list)}>{t('common:actions.back')}</Button>}
      />
    );
  }
  if (!shop.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const s = shop.data;

  const submit = async (v: SettingValues) => {
    try {
      await update({
        id,
        marketplaceChannelInput: {
          warehouseId: v.warehouseId ?? 0,
          logisticChannelId: v.logisticChannelId ?? 0,
          paymentChannelId: v.paymentChannelId ?? 0,
          status: v.active ? 'active' : 'inactive',
        },
      }).unwrap();
      notifySuccess(t('marketplaces:setting.saved', { name: s.shopName }));
      navigate(list);
    } catch (e) {
      showSaveRefusal(e, form, t, { ns: 'marketplaces', only: FIELDS });
    }
  };

  return (
    <Card data-testid="sale-channel-setting">
      <div className="bo-page-head">
        <h1>{t('marketplaces:setting.title', { name: s.shopName })}</h1>
      </div>
      {params.get('connected') ? (
        <Alert type="success" showIcon style={{ marginBottom: 16 }} title={t('marketplaces:setting.connected', { name: s.shopName })} data-testid="sale-channel-connected" />
      ) : null}
      {s.isTokenExpire ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('marketplaces:list.connectionLost')} /> : null}
      <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('marketplaces:fields.marketplace')}>{t(`marketplaces:names.${s.marketplace}`, { defaultValue: s.marketplace })}</Descriptions.Item>
        <Descriptions.Item label={t('marketplaces:fields.shopIdLabel')}>{s.shopId}</Descriptions.Item>
        <Descriptions.Item label={t('marketplaces:fields.tokenExpireAt')}>{formatDateTime(s.tokenExpireAt, i18n.language)}</Descriptions.Item>
      </Descriptions>
      <Form<SettingValues> form={form} layout="vertical" style={{ maxWidth: 560 }} onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item name="warehouseId" label={t('marketplaces:fields.warehouse')} extra={t('marketplaces:setting.warehouseHint')} rules={[{ required: true, message: t('marketplaces:setting.warehouseRequired') }]}>
          <Select
            placeholder={t('marketplaces:setting.choose')}
            options={(warehouses.data?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
            onChange={() => form.setFieldValue('logisticChannelId', undefined)}
            data-testid="setting-warehouse"
          />
        </Form.Item>
        <Form.Item name="logisticChannelId" label={t('marketplaces:fields.logisticChannel')}>
          <Select
            allowClear
            disabled={!warehouseId}
            placeholder={t(warehouseId ? 'marketplaces:setting.choose' : 'marketplaces:setting.warehouseFirst')}
            loading={shipping.isFetching}
            options={(shipping.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            data-testid="setting-logistic"
          />
        </Form.Item>
        <Form.Item name="paymentChannelId" label={t('marketplaces:fields.paymentChannel')}>
          <Select
            allowClear
            placeholder={t('marketplaces:setting.choose')}
            options={(payments.data?.data ?? []).filter((p) => p.status === 'active').map((p) => ({ value: p.id, label: accountLabel(p) }))}
            data-testid="setting-payment"
          />
        </Form.Item>
        <Form.Item name="active" label={t('marketplaces:fields.status')} valuePropName="checked" extra={t('marketplaces:setting.statusHint')}>
          <Switch data-testid="setting-status" />
        </Form.Item>
        <Space>
          <Button onClick={() => navigate(list)}>{t('common:actions.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="setting-save">
            {t('common:actions.save')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
