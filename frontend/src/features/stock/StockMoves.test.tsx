import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { P } from '@/shared/permissions.gen';
import { serveBy, type Reply, type Sent, refusal } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import StockMovesPage from './StockMovesPage';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { atWidth } from '@/shared/testing/viewport';

// antd tables, selects and forms render slowly in jsdom.

fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[], page = 1, pages = 1) => ({
  status: 200,
  body: { data, total: data.length, limit: 10, page, pages },
});
const WAREHOUSES = list([
  {
    id: 1,
    code: 'MAIN',
    name: 'คลังหลัก',
    is_default: true,
    active: true,
    created_at: '2026-11-01T00:00:00Z',
  },
  {
    id: 2,
    code: 'SIAM',
    name: 'คลังสยาม',
    is_default: false,
    active: true,
    created_at: '2026-11-02T00:00:00Z',
  },
  {
    id: 3,
    code: 'OLD',
    name: 'คลังเก่า',
    is_default: false,
    active: false,
    created_at: '2026-11-03T00:00:00Z',
  },
]);
const sku = (sku_id: number, sku_code: string, product_name: string, available: number) => ({
  sku_id,
  sku_code,
  product_id: sku_id,
  product_name,
  option1: '',
  option2: '',
  safety_stock: 0,
  inventory: {
    warehouse_id: 1,
    available,
    preorder: 0,
    quantity: available,
    reserve: 0,
  },
});
const SKUS = list([sku(3, 'TS-001', 'เสื้อยืด', 40), sku(8, 'MUG-02', 'แก้วมัค', 6)]);
const transfer = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  code: `TF2569-00000${id}`,
  state: 'in_transit',
  from_warehouse_id: 1,
  to_warehouse_id: 2,
  note: '',
  items: [
    {
      sku_id: 3,
      sku_code: 'TS-001',
      product_name: 'เสื้อยืด',
      quantity: 5,
      lots: [
        {
          lot_id: 11,
          lot_code: 'GR2569-000004',
          quantity: 3,
          expired_at: '2027-01-31',
        },
        { lot_id: 12, lot_code: 'ADJ', quantity: 2, expired_at: null },
      ],
    },
  ],
  total_qty: 5,
  created_by: 1,
  created_by_name: 'สมศรี ใจดี',
  received_by: 0,
  received_by_name: '',
  created_at: '2026-11-20T03:00:00Z',
  received_at: null,
  ...extra,
});

/** The fake gateway; `over` answers first. Each call's Idempotency-Key is kept in `keys`. */
function serve(setup: { transfers?: unknown[]; adjustments?: unknown[] } = {}, over: (method: string, path: string) => Reply | undefined = () => undefined) {
  const sent = serveBy((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/wms/warehouses') return WAREHOUSES;
    if (path === '/products/sku-inventories') return SKUS;
    if (method === 'GET' && path === '/wms/transfers') return list(setup.transfers ?? []);
    if (method === 'GET' && path === '/wms/goods-adjust') return list(setup.adjustments ?? []);
    return {
      status: 404,
      body: { error: { code: 'not_found', message_key: 'x', message: 'x' } },
    };
  });
  const keys: (string | null)[] = [];
  const inner = global.fetch;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    if (req.method === 'POST') keys.push(req.headers.get('idempotency-key'));
    return inner(input);
  }) as jest.Mock;
  return { sent, keys };
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

function renderAt(path: string, permission = 'owner', permissions: string[] = []) {
  render(
    <Provider store={signedInStore(permission, permissions)}>
      <DialogHost />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:storeId/stock-management-transfer" element={<StockMovesPage />} />
          <Route path="/:storeId/stock-management-goods-adjust" element={<StockMovesPage />} />
          <Route path="/:storeId/stock-management-warehouses" element={<StockMovesPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

async function choose(testId: string, option: string) {
  const select = screen.getByTestId(testId).closest('.ant-select') as HTMLElement;
  await userEvent.click(select.querySelector('[role="combobox"]') as HTMLElement);
  // The option of the open list (a closed list stays in the page, hidden).
  const open = (o: HTMLElement) => o.closest('.ant-select-item-option') && !o.closest('.ant-select-dropdown-hidden');
  const options = await waitFor(() => {
    const found = screen.getAllByText(option).filter(open);
    if (found.length === 0) throw new Error(`no open option ${option}`);
    return found;
  });
  await userEvent.click(options[0]);
}

const item = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;
const form = (s: Sent) => Object.fromEntries(new URLSearchParams(s.body));
const activeTab = () => document.querySelector('.ant-tabs-tab-active') as HTMLElement;

describe('the stock moves tab screen', () => {
  it('shows the tab of the path, and switching tabs changes the path', async () => {
    serve({ adjustments: [] });
    renderAt('/1/stock-management-goods-adjust');
    expect(await screen.findByTestId('adjust-table')).toBeInTheDocument();
    expect(activeTab()).toHaveTextContent('Goods adjust');
    await userEvent.click(screen.getByTestId('moves-tab-transfer'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/1\/stock-management-transfer$/));
    expect(await screen.findByTestId('transfer-table')).toBeInTheDocument();
    expect(activeTab()).toHaveTextContent('Transfer');
    await userEvent.click(screen.getByTestId('moves-tab-warehouses'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/1\/stock-management-warehouses$/));
    expect(await screen.findByText('คลังเก่า')).toBeInTheDocument();
    expect(activeTab()).toHaveTextContent('Warehouses');
  });

  it('offers a member only the tabs their rights open', async () => {
    serve();
    renderAt('/1/stock-management-warehouses', 'cashier', [P.productSkuRead]);
    expect(await screen.findByTestId('warehouse-table')).toBeInTheDocument();
    expect(screen.queryByTestId('moves-tab-transfer')).not.toBeInTheDocument();
    expect(screen.queryByTestId('moves-tab-goods-adjust')).not.toBeInTheDocument();
    // Reading is not changing: no adding, renaming or switching.
    expect(screen.queryByTestId('warehouse-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('warehouse-2-active')).not.toBeInTheDocument();
    expect(screen.queryByTestId('warehouse-2-rename')).not.toBeInTheDocument();
  });
});

describe('transfers', () => {
  it('lists transfers with their route, units, state and people; a row opens on its lines and lots', async () => {
    serve({
      transfers: [
        transfer(7),
        transfer(6, {
          state: 'received',
          received_by: 2,
          received_by_name: 'มานี มีนา',
          received_at: '2026-11-21T04:00:00Z',
          note: 'เติมของหน้าร้าน',
        }),
      ],
    });
    renderAt('/1/stock-management-transfer');
    expect(await screen.findByText('TF2569-000007')).toBeInTheDocument();
    expect(screen.getByTestId('transfer-7-route')).toHaveTextContent('คลังหลัก');
    expect(screen.getByTestId('transfer-7-route')).toHaveTextContent('คลังสยาม');
    expect(screen.getByTestId('transfer-7-state')).toHaveTextContent('In transit');
    expect(screen.getByTestId('transfer-6-state')).toHaveTextContent('Received');
    expect(screen.getByTestId('transfer-7-sent')).toHaveTextContent('สมศรี ใจดี');
    expect(screen.getByTestId('transfer-6-received')).toHaveTextContent('มานี มีนา');
    expect(screen.getByText('เติมของหน้าร้าน')).toBeInTheDocument();
    // Only a transfer in transit can be confirmed.
    expect(screen.getByTestId('transfer-7-receive')).toBeInTheDocument();
    expect(screen.queryByTestId('transfer-6-receive')).not.toBeInTheDocument();
    const row = screen.getByText('TF2569-000007').closest('tr') as HTMLElement;
    await userEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    const lots = await screen.findByTestId('transfer-7-line-3-lots');
    expect(lots).toHaveTextContent('GR2569-000004 × 3');
    expect(lots).toHaveTextContent('exp. 31 Jan 2027');
    expect(lots).toHaveTextContent('ADJ × 2');
  });

  it('refuses to send to the source warehouse, and only to active ones', async () => {
    const { sent } = serve();
    renderAt('/1/stock-management-transfer');
    await userEvent.click(await screen.findByTestId('transfer-create'));
    await choose('transfer-to', 'คลังสยาม');
    // The deactivated warehouse takes no new stock: it is not offered as a destination.
    await userEvent.click(screen.getByTestId('transfer-to').closest('.ant-select')!.querySelector('[role="combobox"]') as HTMLElement);
    const offered = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].map((o) => o.textContent);
    expect(offered).toEqual(['คลังหลัก', 'คลังสยาม']);
    await userEvent.keyboard('{Escape}');
    await choose('transfer-from', 'คลังสยาม');
    expect(await within(item('transfer-to')).findByText('Choose a warehouse other than the source')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('transfer-save'));
    await waitFor(() => expect(within(item('transfer-to')).getByText('Choose a warehouse other than the source')).toBeInTheDocument());
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
  });

  it('says a want of stock under the line it concerns, and sends again under a new key', async () => {
    let posts = 0;
    const { sent, keys } = serve({}, (method, path) => {
      if (method !== 'POST' || path !== '/wms/transfers') return undefined;
      posts += 1;
      // The service checks the lines by SKU: its first line is SKU 3, the form's second.
      return posts === 1
        ? refusal(409, 'insufficient_stock', [{ field: 'lines[0].quantity', code: 'stock.insufficient' }])
        : { status: 201, body: transfer(9) };
    });
    renderAt('/1/stock-management-transfer');
    await userEvent.click(await screen.findByTestId('transfer-create'));
    await choose('transfer-to', 'คลังสยาม');
    await choose('transfer-line-0-sku', 'แก้วมัค · MUG-02 — 6 available');
    expect(item('transfer-line-0-quantity')).toHaveTextContent('6 available');
    fireEvent.change(screen.getByTestId('transfer-line-0-quantity'), {
      target: { value: '7' },
    });
    await userEvent.click(screen.getByTestId('transfer-add-line'));
    await choose('transfer-line-1-sku', 'เสื้อยืด · TS-001 — 40 available');
    fireEvent.change(screen.getByTestId('transfer-line-1-quantity'), {
      target: { value: '30' },
    });
    await userEvent.click(screen.getByTestId('transfer-save'));
    // More than is available is refused before it is sent.
    expect(await within(item('transfer-line-0-quantity')).findByText('Only 6 available in the source warehouse')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('transfer-line-0-quantity'), {
      target: { value: '2' },
    });
    await userEvent.click(screen.getByTestId('transfer-save'));
    expect(await within(item('transfer-line-1-quantity')).findByText('Not enough stock available in the source warehouse')).toBeInTheDocument();
    expect(within(item('transfer-line-0-quantity')).queryByText('Not enough stock available in the source warehouse')).not.toBeInTheDocument();
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.url).toBe('/api/wms/transfers');
    expect(form(post)).toEqual({
      from_warehouse_id: '1',
      to_warehouse_id: '2',
      'items[0][sku_id]': '3',
      'items[0][quantity]': '30',
      'items[1][sku_id]': '8',
      'items[1][quantity]': '2',
    });
    fireEvent.change(screen.getByTestId('transfer-line-1-quantity'), {
      target: { value: '10' },
    });
    fireEvent.change(screen.getByTestId('transfer-note'), {
      target: { value: 'เติมของหน้าร้าน' },
    });
    await userEvent.click(screen.getByTestId('transfer-save'));
    expect(await screen.findByText('TF2569-000009 sent; its units are in transit')).toBeInTheDocument();
    expect(form(sent.filter((s) => s.method === 'POST')[1])).toMatchObject({
      'items[0][quantity]': '10',
      note: 'เติมของหน้าร้าน',
    });
    // A key per submission: the refused one and the new one differ.
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('says a destination deactivated meanwhile under the destination', async () => {
    serve({}, (method, path) => (method === 'POST' && path === '/wms/transfers' ? refusal(409, 'warehouse_inactive') : undefined));
    renderAt('/1/stock-management-transfer');
    await userEvent.click(await screen.findByTestId('transfer-create'));
    await choose('transfer-to', 'คลังสยาม');
    await choose('transfer-line-0-sku', 'เสื้อยืด · TS-001 — 40 available');
    fireEvent.change(screen.getByTestId('transfer-line-0-quantity'), {
      target: { value: '1' },
    });
    await userEvent.click(screen.getByTestId('transfer-save'));
    expect(await within(item('transfer-to')).findByText('This warehouse is deactivated and takes no new stock')).toBeInTheDocument();
  });

  it('confirms a transfer received after asking', async () => {
    const { sent } = serve({ transfers: [transfer(7)] }, (method, path) =>
      method === 'POST' && path === '/wms/transfers/7/receive' ? { status: 200, body: transfer(7, { state: 'received' }) } : undefined,
    );
    renderAt('/1/stock-management-transfer');
    await userEvent.click(await screen.findByTestId('transfer-7-receive'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('Has คลังสยาม received the 5 units of TF2569-000007?');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/wms/transfers/7/receive')).toBe(true));
    expect(await screen.findByText('TF2569-000007 received')).toBeInTheDocument();
  });

  it('opens the pick list in a new tab', async () => {
    const tab = {
      document: { title: '', body: { textContent: '' } },
      location: { href: '' },
      close: jest.fn(),
    };
    const open = jest.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    Object.assign(URL, {
      createObjectURL: jest.fn(() => 'blob:pick-list'),
      revokeObjectURL: jest.fn(),
    });
    const { sent } = serve({ transfers: [transfer(7)] }, (method, path) => (path === '/wms/transfers/7/pick-list' ? { status: 200, body: '%PDF' } : undefined));
    renderAt('/1/stock-management-transfer');
    await userEvent.click(await screen.findByTestId('transfer-7-pick-list'));
    await waitFor(() => expect(tab.location.href).toBe('blob:pick-list'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(sent.some((s) => s.url === '/api/wms/transfers/7/pick-list')).toBe(true);
    open.mockRestore();
  });

  it('hides sending and confirming from a member who may only read', async () => {
    serve({ transfers: [transfer(7)] });
    renderAt('/1/stock-management-transfer', 'cashier', [P.wmsGoodsAdjustRead]);
    expect(await screen.findByText('TF2569-000007')).toBeInTheDocument();
    expect(screen.queryByTestId('transfer-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('transfer-7-receive')).not.toBeInTheDocument();
    expect(screen.getByTestId('transfer-7-pick-list')).toBeInTheDocument();
  });
});

describe('warehouses', () => {
  it('has no switch for the default warehouse, and deactivates another after explaining', async () => {
    const { sent } = serve({}, (method, path) =>
      method === 'PATCH' && path === '/wms/warehouses/2'
        ? {
            status: 200,
            body: {
              id: 2,
              code: 'SIAM',
              name: 'คลังสยาม',
              is_default: false,
              active: false,
              created_at: '',
            },
          }
        : undefined,
    );
    renderAt('/1/stock-management-warehouses');
    expect(await screen.findByTestId('warehouse-1-default')).toHaveTextContent('Default');
    expect(screen.queryByTestId('warehouse-1-active')).not.toBeInTheDocument();
    expect(screen.getByText('The default warehouse cannot be deactivated')).toBeInTheDocument();
    expect(screen.getByTestId('warehouse-3-status')).toHaveTextContent('Deactivated');
    expect(screen.getByTestId('warehouse-hint')).toHaveTextContent('keeps its stock and its history');
    await userEvent.click(screen.getByTestId('warehouse-2-active'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('คลังสยาม keeps its stock and history, but takes no new stock');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    const patch = sent.find((s) => s.method === 'PATCH')!;
    expect(patch.url).toBe('/api/wms/warehouses/2');
    expect(JSON.parse(patch.body)).toEqual({ active: false });
    expect(await screen.findByText('คลังสยาม is deactivated')).toBeInTheDocument();
  });

  it('adds a warehouse with an optional code, a taken name said under the name', async () => {
    let posts = 0;
    const { sent } = serve({}, (method, path) => {
      if (method !== 'POST' || path !== '/wms/warehouses') return undefined;
      posts += 1;
      return posts === 1
        ? refusal(409, 'warehouse_name_taken')
        : {
            status: 201,
            body: {
              id: 4,
              code: 'CNX',
              name: 'คลังเชียงใหม่',
              is_default: false,
              active: true,
              created_at: '',
            },
          };
    });
    renderAt('/1/stock-management-warehouses');
    await userEvent.click(await screen.findByTestId('warehouse-create'));
    fireEvent.change(screen.getByTestId('warehouse-name'), {
      target: { value: 'คลังสยาม' },
    });
    fireEvent.change(screen.getByTestId('warehouse-code'), {
      target: { value: 'cn x' },
    });
    await userEvent.click(screen.getByTestId('warehouse-save'));
    expect(await within(item('warehouse-code')).findByText('A code has 1 to 20 capital letters, digits or dashes')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('warehouse-code'), {
      target: { value: 'cnx' },
    });
    await userEvent.click(screen.getByTestId('warehouse-save'));
    expect(await within(item('warehouse-name')).findByText('The store already has a warehouse with this name')).toBeInTheDocument();
    expect(form(sent.find((s) => s.method === 'POST')!)).toEqual({
      name: 'คลังสยาม',
      code: 'CNX',
    });
    fireEvent.change(screen.getByTestId('warehouse-name'), {
      target: { value: 'คลังเชียงใหม่' },
    });
    await userEvent.click(screen.getByTestId('warehouse-save'));
    expect(await screen.findByText('คลังเชียงใหม่ added')).toBeInTheDocument();
  });

  it('renames a warehouse', async () => {
    const { sent } = serve({}, (method, path) =>
      method === 'PATCH' && path === '/wms/warehouses/3'
        ? {
            status: 200,
            body: {
              id: 3,
              code: 'OLD',
              name: 'คลังบางนา',
              is_default: false,
              active: false,
              created_at: '',
            },
          }
        : undefined,
    );
    renderAt('/1/stock-management-warehouses');
    await userEvent.click(await screen.findByTestId('warehouse-3-rename'));
    expect(screen.getByTestId('warehouse-name')).toHaveValue('คลังเก่า');
    expect(screen.queryByTestId('warehouse-code')).not.toBeInTheDocument();
    fireEvent.change(screen.getByTestId('warehouse-name'), {
      target: { value: 'คลังบางนา' },
    });
    await userEvent.click(screen.getByTestId('warehouse-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    expect(JSON.parse(sent.find((s) => s.method === 'PATCH')!.body)).toEqual({
      name: 'คลังบางนา',
    });
  });
});

describe('goods adjust', () => {
  it('lists who adjusted, why, and the lots the units came from', async () => {
    serve({
      adjustments: [
        {
          id: 31,
          warehouse_id: 1,
          sku_id: 3,
          sku_code: 'TS-001',
          quantity: -4,
          reason: 'สินค้าชำรุด',
          reference: 'adjust:x',
          created_by: 2,
          created_by_name: 'มานี มีนา',
          lots: [
            {
              lot_id: 11,
              lot_code: 'GR2569-000004',
              quantity: 3,
              expired_at: '2027-01-31',
            },
            {
              lot_id: 12,
              lot_code: 'GR2569-000005',
              quantity: 1,
              expired_at: null,
            },
          ],
          created_at: '2026-11-20T03:00:00Z',
        },
      ],
    });
    renderAt('/1/stock-management-goods-adjust');
    expect(await screen.findByTestId('adjust-31-by')).toHaveTextContent('มานี มีนา');
    expect(screen.getByTestId('adjust-31-reason')).toHaveTextContent('สินค้าชำรุด');
    const lots = screen.getByTestId('adjust-31-lots');
    expect(lots).toHaveTextContent('GR2569-000004 × 3');
    expect(lots).toHaveTextContent('exp. 31 Jan 2027');
    expect(lots).toHaveTextContent('GR2569-000005 × 1');
    expect(screen.getByText('-4')).toBeInTheDocument();
  });

  it('adjusts stock with a reason', async () => {
    const { sent } = serve({ adjustments: [] }, (method, path) =>
      method === 'POST' && path === '/wms/goods-adjust'
        ? {
            status: 201,
            body: {
              warehouse_id: 1,
              available: 44,
              preorder: 0,
              quantity: 44,
              reserve: 0,
            },
          }
        : undefined,
    );
    renderAt('/1/stock-management-goods-adjust');
    await userEvent.click(await screen.findByTestId('adjust-create'));
    await choose('adjust-sku', 'เสื้อยืด · TS-001');
    fireEvent.change(screen.getByTestId('adjust-quantity'), {
      target: { value: '4' },
    });
    fireEvent.change(screen.getByTestId('adjust-reason'), {
      target: { value: 'นับสต็อก' },
    });
    await userEvent.click(document.getElementById('adjust-save') as HTMLElement);
    expect(await screen.findByText('Stock adjusted')).toBeInTheDocument();
    expect(form(sent.find((s) => s.method === 'POST')!)).toEqual({
      warehouse_id: '1',
      sku_id: '3',
      quantity: '4',
      reason: 'นับสต็อก',
    });
  });
});


describe('goods adjust on a phone', () => {
  const desktopWidth = window.innerWidth;
  beforeEach(() => atWidth(390));
  afterEach(() => atWidth(desktopWidth));

  it('lists the adjustments as cards, and removes stock in a one-column form saved from the bar at the bottom', async () => {
    const { sent } = serve(
      {
        adjustments: [
          {
            id: 31,
            warehouse_id: 1,
            sku_id: 3,
            sku_code: 'TS-001',
            quantity: -4,
            reason: 'สินค้าชำรุด',
            reference: 'adjust:x',
            created_by: 2,
            created_by_name: 'มานี มีนา',
            lots: [{ lot_id: 11, lot_code: 'GR2569-000004', quantity: 4, expired_at: null }],
            created_at: '2026-11-20T03:00:00Z',
          },
        ],
      },
      (method, path) =>
        method === 'POST' && path === '/wms/goods-adjust' ? { status: 201, body: { warehouse_id: 1, available: 40, preorder: 0, quantity: 40, reserve: 0 } } : undefined,
    );
    renderAt('/1/stock-management-goods-adjust');
    const card = await screen.findByTestId('adjust-31-card');
    expect(document.querySelector('.ant-table')).toBeNull();
    expect(card).toHaveTextContent('TS-001');
    expect(within(card).getByTestId('adjust-31-quantity')).toHaveTextContent('-4');
    expect(within(card).getByTestId('adjust-31-reason')).toHaveTextContent('สินค้าชำรุด');
    expect(within(card).getByTestId('adjust-31-by')).toHaveTextContent('มานี มีนา');
    expect(within(card).getByTestId('adjust-31-lots')).toHaveTextContent('GR2569-000004 × 4');

    // The form takes the list's place: no dialog; the count typed without a sign.
    await userEvent.click(screen.getByTestId('adjust-create'));
    expect(await screen.findByTestId('adjust-form')).toBeInTheDocument();
    expect(document.querySelector('.ant-modal')).toBeNull();
    expect(screen.getByTestId('adjust-quantity')).toHaveAttribute('inputmode', 'numeric');
    await choose('adjust-sku', 'เสื้อยืด · TS-001');
    await userEvent.click(screen.getByTestId('adjust-remove'));
    fireEvent.change(screen.getByTestId('adjust-quantity'), { target: { value: '4' } });
    fireEvent.change(screen.getByTestId('adjust-reason'), { target: { value: 'แตก' } });
    const bar = screen.getByTestId('adjust-actions');
    expect(bar).toHaveClass('bo-bottom-bar');
    await userEvent.click(within(bar).getByTestId('adjust-save'));
    expect(await screen.findByText('Stock adjusted')).toBeInTheDocument();
    expect(form(sent.find((s) => s.method === 'POST')!)).toEqual({ warehouse_id: '1', sku_id: '3', quantity: '-4', reason: 'แตก' });
    // Back to the list.
    await waitFor(() => expect(screen.queryByTestId('adjust-form')).not.toBeInTheDocument());
    expect(screen.getByTestId('adjust-create')).toBeInTheDocument();
  });
});
