import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';

import { useCan } from '@/shared/useCan';
import { GoodsAdjustTab } from './moves/GoodsAdjustTab';
import { movesPath, tabOfPath, type MovesTab } from './moves/tabs';
import { TransferTab } from './moves/TransferTab';
import { WarehousesTab } from './moves/WarehousesTab';
import { ADJUST_READ, OVERVIEW_READ } from './routes';

/** /stock-management-transfer, /stock-management-goods-adjust and /stock-management-warehouses
 * (SPEC §2): one tab screen; the tab follows the path and switching tabs changes it. Tabs the
 * member may not open are not offered. */
export default function StockMovesPage() {
  const { t } = useTranslation('stock');
  const { storeId } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const tab = tabOfPath(pathname);
  const canMoves = useCan(ADJUST_READ);
  const canWarehouses = useCan(OVERVIEW_READ);
  const shown: MovesTab[] = [...(canMoves ? (['transfer', 'goods-adjust'] as const) : []), ...(canWarehouses ? (['warehouses'] as const) : [])];
  const tabs = shown.includes(tab) ? shown : [tab, ...shown];

  return (
    <Card data-testid="stock-moves">
      <Tabs
        activeKey={tab}
        onChange={(k) => navigate(movesPath(storeId, k as MovesTab))}
        items={tabs.map((k) => ({ key: k, label: <span data-testid={`moves-tab-${k}`}>{t(`stock:moves.tabs.${k}`)}</span> }))}
      />
      {tab === 'transfer' ? <TransferTab /> : tab === 'goods-adjust' ? <GoodsAdjustTab /> : <WarehousesTab />}
    </Card>
  );
}
