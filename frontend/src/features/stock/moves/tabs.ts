// The stock moves screen's tabs (SPEC §2: transfer and goods adjust share one tab screen; the
// warehouses sit beside them), each at its own path so the active tab follows the URL.

export const MOVES_TABS = ['transfer', 'goods-adjust', 'warehouses'] as const;
export type MovesTab = (typeof MOVES_TABS)[number];

const PATHS: Record<MovesTab, string> = {
  transfer: 'stock-management-transfer',
  'goods-adjust': 'stock-management-goods-adjust',
  warehouses: 'stock-management-warehouses',
};

/** The path of a tab under the store. */
export function movesPath(storeId: string | number | undefined, tab: MovesTab): string {
  return `/${storeId}/${PATHS[tab]}`;
}

/** The tab a path shows (the transfer tab when none matches). */
export function tabOfPath(pathname: string): MovesTab {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  return MOVES_TABS.find((k) => PATHS[k] === last) ?? 'transfer';
}
