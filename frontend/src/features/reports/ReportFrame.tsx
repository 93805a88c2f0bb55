import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router-dom';

import type { Access } from '@/shared/perms';
import { useCan } from '@/shared/useCan';
import { DASHBOARDS, MOVEMENT_REPORT, ORDER_REPORT } from './access';

/** The reports' tabs (SPEC §2 Reports), each shown to whoever may read it. */
export const REPORT_TABS: { key: 'order' | 'stock' | 'movement' | 'sales' | 'staff'; path: string; access: Access }[] = [
  { key: 'order', path: 'report/order', access: ORDER_REPORT },
  { key: 'stock', path: 'report/stock', access: MOVEMENT_REPORT },
  { key: 'movement', path: 'report/movement', access: MOVEMENT_REPORT },
  { key: 'sales', path: 'report/sales', access: DASHBOARDS },
  { key: 'staff', path: 'report/staff', access: DASHBOARDS },
];

function useReportTabs() {
  const order = useCan(ORDER_REPORT);
  const movement = useCan(MOVEMENT_REPORT);
  const sales = useCan(DASHBOARDS);
  const allowed = { order, stock: movement, movement, sales, staff: sales };
  return REPORT_TABS.filter((x) => allowed[x.key]);
}

/** A report page: the tabs of the reports its reader may open, its title (with `extra`
 * beside it), and the report. */
export function ReportFrame({ tab, extra, children }: { tab: (typeof REPORT_TABS)[number]['key']; extra?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('reports');
  const navigate = useNavigate();
  const { storeId } = useParams();
  const tabs = useReportTabs();
  return (
    <div data-testid={`report-${tab}`}>
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          const to = REPORT_TABS.find((x) => x.key === key);
          if (to) navigate(`/${storeId}/${to.path}`);
        }}
        items={tabs.map((x) => ({ key: x.key, label: <span data-testid={`report-tab-${x.key}`}>{t(`report.tabs.${x.key}`)}</span> }))}
        style={{ marginBottom: 0 }}
      />
      <div className="bo-page-head">
        <h1>{t(`report.titles.${tab}`)}</h1>
        {extra ? <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>{extra}</div> : null}
      </div>
      {children}
    </div>
  );
}

/** /report: the order report (SPEC §2), or the first report its reader may open. */
export default function ReportIndexPage() {
  const { storeId } = useParams();
  const tabs = useReportTabs();
  return <Navigate to={`/${storeId}/${(tabs[0] ?? REPORT_TABS[0]).path}`} replace />;
}
