import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';

import { useListWarehousesQuery } from '@/features/stock/api';
import { useCan } from '@/shared/useCan';
import { POS_EDIT, useListBranchesQuery, useListCashiersQuery, useListPosUnitsQuery, useListSellersQuery } from './api';
import { BranchTable, PeopleTable, PosUnitTable } from './PosTables';
import { tabOf, type PosTab } from './pos';

/** /pos-setting (SPEC §2 Point of sale): the store's branches, POS units, cashiers and sellers
 * on four tabs, `?tab=` naming the open one. Any member reads them; the owner and store.* change
 * them. POS units, cashiers and sellers each belong to a branch, so they wait for the first. */
export default function PosSettingPage() {
  const { t } = useTranslation(['pos', 'common']);
  const { storeId } = useParams();
  const id = Number(storeId);
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const canEdit = useCan(POS_EDIT);
  const branches = useListBranchesQuery({ id });
  const posUnits = useListPosUnitsQuery({ id });
  const cashiers = useListCashiersQuery({ id });
  const sellers = useListSellersQuery({ id });
  const { data: warehouses } = useListWarehousesQuery();
  const warehouseName = (w: number) => warehouses?.data.find((x) => x.id === w)?.name ?? (w ? `#${w}` : '–');
  const noBranch = branches.isSuccess && branches.data.data.length === 0;
  const common = { storeId: id, canEdit, warehouseName };

  const label = (key: PosTab, text: string, count: number | undefined) => (
    <span data-testid={`pos-tab-${key}`}>
      {text}
      {count !== undefined ? <Typography.Text type="secondary">{` (${count})`}</Typography.Text> : null}
    </span>
  );

  return (
    <Card data-testid="pos-setting">
      <div className="bo-page-head">
        <h1>{t('pos:page.title')}</h1>
      </div>
      <Typography.Paragraph type="secondary">{t('pos:page.hint')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams(new URLSearchParams({ tab: k }), { replace: true })}
        items={[
          {
            key: 'branches',
            label: label('branches', t('pos:tabs.branches'), branches.data?.total),
            children: <BranchTable {...common} loading={branches.isFetching} branches={branches.data?.data ?? []} />,
          },
          {
            key: 'pos-units',
            label: label('pos-units', t('pos:tabs.posUnits'), posUnits.data?.total),
            children: <PosUnitTable {...common} loading={posUnits.isFetching} rows={posUnits.data?.data ?? []} noBranch={noBranch} />,
          },
          {
            key: 'cashiers',
            label: label('cashiers', t('pos:tabs.cashiers'), cashiers.data?.total),
            children: <PeopleTable {...common} kind="cashiers" loading={cashiers.isFetching} rows={cashiers.data?.data ?? []} noBranch={noBranch} />,
          },
          {
            key: 'sellers',
            label: label('sellers', t('pos:tabs.sellers'), sellers.data?.total),
            children: <PeopleTable {...common} kind="sellers" loading={sellers.isFetching} rows={sellers.data?.data ?? []} noBranch={noBranch} />,
          },
        ]}
      />
    </Card>
  );
}
