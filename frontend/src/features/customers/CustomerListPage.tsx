import { Button, Card, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { formatDateTime } from '@/shared/i18n/i18n';
import { Pager } from '@/shared/pager/Pager';
import { useAddressParams } from '@/shared/useAddressParams';
import { useCan } from '@/shared/useCan';
import { useIsMobile } from '@/app/layouts/useDevice';
import { HeadActions } from '@/shared/list/Actions';
import { ListView } from '@/shared/list/ListView';
import { useListCustomersQuery, type CustomerBody } from './api';
import { CustomerPicker } from './CustomerPicker';
import { CUSTOMER_CREATE } from './routes';

export const PAGE_SIZE = 10;

export default function CustomerListPage() {
  const { t, i18n } = useTranslation(['customers', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const { params, set } = useAddressParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, isFetching } = useListCustomersQuery({ id, search: search || undefined, page, limit: PAGE_SIZE });
  const canCreate = useCan(CUSTOMER_CREATE);
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const area = (c: CustomerBody) => (c.country && c.country !== 'TH' ? `${c.city}, ${c.country}` : `${c.district} ${c.stateProvince}`);

  const columns = [
    {
      title: t('customers:fields.name'),
      dataIndex: 'name',
      render: (name: string, c: CustomerBody) => <Link to={`/${id}/customer-detail/${c.id}`}>{name}</Link>,
    },
    { title: t('customers:fields.tel'), dataIndex: 'tel' },
    {
      title: t('customers:fields.area'),
      render: (_: unknown, c: CustomerBody) => area(c),
    },
    { title: t('customers:fields.orderCount'), dataIndex: 'orderCount', align: 'right' as const },
    { title: t('customers:fields.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v, i18n.language) },
  ];

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('customers:list.title')}</h1>
        {/* On a phone the layout's search bar above finds customers; the quick find would not fit. */}
        {mobile ? null : <CustomerPicker storeId={id} onPick={(c) => navigate(`/${id}/customer-detail/${c.id}`)} />}
        {canCreate ? (
          <HeadActions
            primary={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/${id}/customer-create`)} data-testid="customer-create">
                {t('customers:list.create')}
              </Button>
            }
          />
        ) : null}
      </div>
      {search ? <Typography.Paragraph type="secondary">{t('customers:list.searching', { search })}</Typography.Paragraph> : null}
      <ListView<CustomerBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        locale={{ emptyText: t(search ? 'customers:list.noMatch' : 'customers:list.empty') }}
        scroll={{ x: 640 }}
        onOpen={(c) => navigate(`/${id}/customer-detail/${c.id}`)}
        cardTestId={(c) => `customer-${c.id}-card`}
        card={(c) => <CustomerCard customer={c} area={area(c).trim()} updated={formatDateTime(c.updatedAt, i18n.language)} />}
        data-testid="customer-table"
      />
      <Pager
        page={data?.page ?? page}
        pages={data?.pages ?? 1}
        total={data?.total ?? 0}
        onChange={(p) => set({ page: p })}
      />
    </Card>
  );
}

/** A customer as a card on a phone: name and orders, phone and e-mail, area and when last
 * changed. */
function CustomerCard({ customer: c, area, updated }: { customer: CustomerBody; area: string; updated: string }) {
  const { t } = useTranslation('customers');
  return (
    <>
      <div className="bo-card-row">
        <span className="bo-card-title">{c.name}</span>
        <span className="bo-card-sub" style={{ whiteSpace: 'nowrap', flex: 'none' }}>
          {t('list.orders', { count: c.orderCount })}
        </span>
      </div>
      <div>{[c.tel, c.email].filter(Boolean).join(' · ')}</div>
      <div className="bo-card-sub">{[area, t('list.updated', { when: updated })].filter(Boolean).join(' · ')}</div>
    </>
  );
}
