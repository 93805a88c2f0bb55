import { Button, Card, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { apiError } from '@/app/api/errors';
import { showDialog } from '@/shared/dialogs/dialogs';
import { notifyError, notifySuccess } from '@/shared/dialogs/notify';
import { formatDateTime } from '@/shared/i18n/i18n';
import { Pager } from '@/shared/pager/Pager';
import { useCan } from '@/shared/useCan';
import { useDeleteStoreUnitMutation, useListStoreUnitsQuery, type UnitBody } from './api';
import { SETTINGS_EDIT } from './routes';
import { baseUnitKey } from './units';

export const PAGE_SIZE = 10;

/** /setting/unit-of-measurement: the store's units, paged; owners and store.* may delete. */
export default function UnitListPage() {
  const { t, i18n } = useTranslation(['settings', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, isFetching } = useListStoreUnitsQuery({ id, page, limit: PAGE_SIZE });
  const [remove] = useDeleteStoreUnitMutation();
  const canEdit = useCan(SETTINGS_EDIT);
  const navigate = useNavigate();

  const amount = (quantity: number, unit: string) => t('settings:units.equals', { quantity: quantity.toLocaleString(i18n.language), unit: t(baseUnitKey(unit)) });

  const onDelete = async (u: UnitBody) => {
    const ok = await showDialog({ kind: 'warning', title: 'settings:units.deleteTitle', message: 'settings:units.deleteMessage', values: { name: u.name }, confirm: 'common:actions.delete' });
    if (!ok) return;
    try {
      await remove({ id, unitId: u.id }).unwrap();
      notifySuccess(t('settings:units.deleted'));
    } catch (e) {
      // 401, 403 and server failures have their global dialogs.
      if (apiError(e)?.code === 'unit_not_found') notifyError(t('settings:errors.unit_not_found'));
    }
  };

  const columns = [
    { title: t('settings:unitFields.name'), dataIndex: 'name' },
    { title: t('settings:unitFields.contains'), render: (_: unknown, u: UnitBody) => amount(u.quantity, u.baseUnit) },
    {
      title: t('settings:unitFields.converted'),
      render: (_: unknown, u: UnitBody) => (u.convertedUnit !== u.baseUnit ? amount(u.convertedQuantity, u.convertedUnit) : <Typography.Text type="secondary">-</Typography.Text>),
    },
    { title: t('settings:unitFields.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => formatDateTime(v, i18n.language) },
    ...(canEdit
      ? [
          {
            title: t('settings:unitFields.actions'),
            align: 'right' as const,
            render: (_: unknown, u: UnitBody) => (
              <Button size="small" danger icon={<DeleteOutlined />} onClick={() => void onDelete(u)} data-testid={`unit-delete-${u.id}`}>
                {t('common:actions.delete')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card>
      <div className="bo-page-head">
        <h1>{t('settings:units.title')}</h1>
        {canEdit ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/${id}/setting/unit-of-measurement-create`)} data-testid="unit-create">
            {t('settings:units.create')}
          </Button>
        ) : null}
      </div>
      <Table<UnitBody>
        rowKey="id"
        size="middle"
        loading={isFetching}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        locale={{ emptyText: t('settings:units.empty') }}
        scroll={{ x: 560 }}
        data-testid="unit-table"
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
