import { Button, Card, Descriptions, Space, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';

import { countryName } from '@/shared/address/countries';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { useCan } from '@/shared/useCan';
import { useIsMobile } from '@/app/layouts/useDevice';
import { BottomBar, HeadActions } from '@/shared/list/Actions';
import { useDeleteCustomerMutation, useGetCustomerQuery } from './api';
import { CUSTOMER_EDIT } from './routes';

export default function CustomerDetailPage() {
  const { t, i18n } = useTranslation(['customers', 'common']);
  const { storeId, customerId } = useParams();
  const id = Number(storeId);
  const cid = Number(customerId);
  const { data: c, isLoading } = useGetCustomerQuery({ id, customerId: cid });
  const [remove] = useDeleteCustomerMutation();
  const canEdit = useCan(CUSTOMER_EDIT);
  const navigate = useNavigate();
  const mobile = useIsMobile();
  if (isLoading || !c) return <Spin />;
  const international = c.country && c.country !== 'TH';
  const place = international
    ? [c.address, c.city, c.stateProvince, c.postcode, countryName(c.country, i18n.language)]
    : [c.address, c.subDistrict, c.district, c.stateProvince, c.postcode];

  const onDelete = async () => {
    const ok = await showDialog({ kind: 'warning', title: 'customers:detail.deleteTitle', message: 'customers:detail.deleteMessage', values: { name: c.name }, confirm: 'common:actions.delete' });
    if (!ok) return;
    await remove({ id, customerId: cid }).unwrap();
    notifySuccess(t('customers:detail.deleted'));
    navigate(`/${id}/customer-list`);
  };

  const primary = canEdit ? (
    <Button key="edit" type="primary" onClick={() => navigate(`/${id}/customer-edit/${cid}`)} data-testid="customer-edit">
      {t('common:actions.edit')}
    </Button>
  ) : null;
  const others = [
    <Button key="book" onClick={() => navigate(`/${id}/customer-detail/${cid}/address-book`)} data-testid="open-address-book">
      {t('customers:detail.addressBook', { count: c.addressCount })}
    </Button>,
    <Button key="social" onClick={() => navigate(`/${id}/customer-social/${cid}`)}>
      {t('customers:detail.social')}
    </Button>,
    canEdit ? (
      <Button key="delete" danger onClick={() => void onDelete()}>
        {t('common:actions.delete')}
      </Button>
    ) : null,
  ];

  return (
    <Card data-testid="customer-detail">
      <div className="bo-page-head">
        <h1>{c.name}</h1>
        {mobile ? null : <Space wrap>{[others[0], others[1], primary, others[2]]}</Space>}
      </div>
      <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
        <Descriptions.Item label={t('customers:fields.tel')}>{c.tel}</Descriptions.Item>
        <Descriptions.Item label={t('customers:fields.email')}>{c.email || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('customers:fields.defaultAddress')} span={2}>
          <span data-testid="default-address">{place.filter(Boolean).join(' ')}</span> {international ? <Tag>{t('customers:fields.international')}</Tag> : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('customers:fields.line')}>{c.line || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('customers:fields.facebook')}>{c.facebook || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('customers:fields.orderCount')}>{c.orderCount}</Descriptions.Item>
        <Descriptions.Item label={t('customers:fields.updatedAt')}>{formatDateTime(c.updatedAt, i18n.language)}</Descriptions.Item>
      </Descriptions>
      {mobile ? (
        // On a phone the actions sit at the bottom: editing in sight, the rest behind "more".
        <BottomBar data-testid="customer-actions">
          <HeadActions primary={primary}>{others}</HeadActions>
        </BottomBar>
      ) : null}
    </Card>
  );
}
