import { Button, Card, List, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { addressLine } from '@/shared/address/countries';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifySuccess } from '@/shared/dialogs/notify';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import { useDeleteAddressMutation, useGetCustomerQuery, useListAddressesQuery, useSetDefaultAddressMutation, type AddressBody } from './api';
import { CUSTOMER_EDIT } from './routes';

/** A customer's address book: one default, add, edit, make default, delete. */
export default function AddressBookPage() {
  const { t, i18n } = useTranslation(['customers', 'common']);
  const { storeId, customerId } = useParams();
  const id = Number(storeId);
  const cid = Number(customerId);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data: customer } = useGetCustomerQuery({ id, customerId: cid });
  const { data, isFetching } = useListAddressesQuery({ id, customerId: cid, page, limit: 10 });
  const [setDefault] = useSetDefaultAddressMutation();
  const [remove] = useDeleteAddressMutation();
  const canEdit = useCan(CUSTOMER_EDIT);
  const navigate = useNavigate();

  const onDelete = async (a: AddressBody) => {
    const ok = await showDialog({ kind: 'warning', title: 'customers:addressBook.deleteTitle', message: 'customers:addressBook.deleteMessage', confirm: 'common:actions.delete' });
    if (!ok) return;
    await remove({ id, customerId: cid, addressId: a.id })
      .unwrap()
      .then(() => notifySuccess(t('customers:addressBook.deleted')))
      .catch((e: unknown) => {
        const code = (e as { data?: { error?: { code?: string } } }).data?.error?.code;
        if (code === 'address_last_cannot_delete') void showDialog({ kind: 'error', title: 'common:errors.somethingWentWrong', message: 'customers:errors.address_last_cannot_delete', cancel: false });
      });
  };

  return (
    <Card data-testid="address-book">
      <div className="bo-page-head">
        <h1>{t('customers:addressBook.title', { name: customer?.name ?? '' })}</h1>
        <Space>
          <Button onClick={() => navigate(`/${id}/customer-detail/${cid}`)}>{t('common:actions.back')}</Button>
          {canEdit ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/${id}/customer-detail/${cid}/address-book-create`)} data-testid="address-create">
              {t('customers:addressBook.add')}
            </Button>
          ) : null}
        </Space>
      </div>
      <List
        loading={isFetching}
        dataSource={data?.data ?? []}
        renderItem={(a) => (
          <List.Item
            data-testid={`address-${a.id}`}
            actions={
              canEdit
                ? [
                    a.isDefault ? null : (
                      <Button key="default" size="small" onClick={() => void setDefault({ id, customerId: cid, addressId: a.id }).unwrap().then(() => notifySuccess(t('customers:addressBook.defaultSet')))} data-testid={`address-make-default-${a.id}`}>
                        {t('customers:addressBook.makeDefault')}
                      </Button>
                    ),
                    <Button key="edit" size="small" onClick={() => navigate(`/${id}/customer-detail/${cid}/address-book-edit/${a.id}`)} data-testid={`address-edit-${a.id}`}>
                      {t('common:actions.edit')}
                    </Button>,
                    <Button key="delete" size="small" danger onClick={() => void onDelete(a)}>
                      {t('common:actions.delete')}
                    </Button>,
                  ].filter(Boolean)
                : []
            }
          >
            <List.Item.Meta
              title={
                <Space>
                  <span>{a.name}</span>
                  <Typography.Text type="secondary">{a.tel}</Typography.Text>
                  {a.isDefault ? <Tag color="green" data-testid="default-tag">{t('customers:addressBook.default')}</Tag> : null}
                </Space>
              }
              description={addressLine(a, i18n.language)}
            />
          </List.Item>
        )}
      />
      <Pager
        page={data?.page ?? page}
        pages={data?.pages ?? 1}
        total={data?.total ?? 0}
        onChange={(p) => setParams(new URLSearchParams({ page: String(p) }))}
      />
    </Card>
  );
}
