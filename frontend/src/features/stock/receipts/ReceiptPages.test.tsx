import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';

import { DialogHost } from '@/shared/dialogs/DialogHost';
import { P } from '@/shared/permissions.gen';
import { serveBy, type Reply, type Sent, refusal } from '@/shared/testing/fakeApi';
import { signedInStore } from '@/shared/testing/session';
import ReceiptBoardPage from './ReceiptBoardPage';
import ReceiptDetailPage from './ReceiptDetailPage';
import ReceiptFormPage from './ReceiptFormPage';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { atWidth } from '@/shared/testing/viewport';

// antd tables, selects, pickers and forms render slowly in jsdom.

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => localStorage.clear());

const list = (data: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { data, total: data.length, limit: -1, page: 1, pages: 1, ...extra },
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
    code: 'OLD',
    name: 'คลังเก่า',
    is_default: false,
    active: false,
    created_at: '2026-11-01T00:00:00Z',
  },
]);
const UNITS = list([
  {
    id: 3,
    name: 'ลัง',
    quantity: 12,
    base_unit: 'piece',
    converted_quantity: 12,
    converted_unit: 'piece',
    created_by: 1,
    updated_by: 1,
    created_at: '',
    updated_at: '',
  },
]);
const SKUS = list([
  {
    sku_id: 27,
    sku_code: 'HM-021',
    product_id: 12,
    product_name: 'หมอนอิงลายช้าง',
    option1: '',
    option2: '',
    safety_stock: 0,
    inventory: {
      warehouse_id: 1,
      available: 5,
      preorder: 0,
      quantity: 5,
      reserve: 0,
    },
  },
  {
    sku_id: 26,
    sku_code: 'BK-001-3',
    product_id: 11,
    product_name: 'สมุดโน้ต A5',
    option1: 'เปล่า',
    option2: '',
    safety_stock: 0,
    inventory: {
      warehouse_id: 1,
      available: 5,
      preorder: 0,
      quantity: 5,
      reserve: 0,
    },
  },
]);

const line = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  sku_id: 27,
  product_id: 12,
  product_name: 'หมอนอิงลายช้าง',
  sku_code: 'HM-021',
  barcode: '',
  option1: '',
  option2: '',
  name: '',
  dimension: { width: 0, length: 0, height: 0, weight: '0.000' },
  cost: '120.50',
  request_qty: 2,
  request_base_qty: 24,
  receive_qty: 0,
  defect_qty: 0,
  good_qty: 0,
  expired_at: '2027-05-01',
  unit: { id: 3, name: 'ลัง', quantity: 12 },
  print_label: true,
  status: '',
  ...over,
});
const receipt = (over: Record<string, unknown> = {}) => ({
  id: 1,
  code: 'GR2569-000001',
  type: 'product',
  state: 'draft',
  warehouse_id: 1,
  warehouse_name: 'คลังหลัก',
  expected_received_at: '2026-11-28T03:30:00Z',
  expected_received_date: '2026-11-28',
  expected_received_time: '10:30',
  note: 'ล็อตใหม่',
  is_pick_up: false,
  pick_up_detail: null,
  items: [
    line(1),
    line(2, {
      sku_id: 26,
      sku_code: 'BK-001-3',
      product_name: 'สมุดโน้ต A5',
      option1: 'เปล่า',
      cost: '15.00',
      request_qty: 10,
      request_base_qty: 10,
      unit: { id: 0, name: '', quantity: 1 },
      print_label: false,
      expired_at: null,
    }),
  ],
  packagings: [],
  options: [],
  reject_reason: '',
  line_count: 2,
  total_cost: '391.00',
  total_request_qty: 34,
  created_by: 1,
  created_by_name: 'สมศรี ใจดี',
  printed_by: 0,
  checked_by: 0,
  decided_by: 0,
  decided_by_name: '',
  decided_at: null,
  created_at: '2026-11-25T12:00:00Z',
  updated_at: '2026-11-25T12:00:00Z',
  ...over,
});

/** The gateway: warehouses, units, SKUs, one receipt; `over` answers first, and a receipt it
 * answers with becomes the one the gateway holds (as a change on the server would). */
function serve(
  one: Record<string, unknown> = receipt(),
  over: (method: string, path: string) => Reply | undefined = () => undefined,
  warehouses = WAREHOUSES,
): Sent[] {
  let held = one;
  return serveBy((method, path) => {
    const own = over(method, path);
    if (own) {
      const body = own.body as Record<string, unknown> | undefined;
      if (own.status < 300 && body && body.id === held.id && typeof body.state === 'string') held = body;
      return own;
    }
    if (path === '/wms/warehouses') return warehouses;
    if (path === '/stores/1/store-unit-of-measurements') return UNITS;
    if (path === '/products/sku-inventories') return SKUS;
    if (method === 'GET' && path === `/wms/goods-receipts/${held.id as number}`) return { status: 200, body: held };
    return refusal(404, 'not_found');
  });
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
          <Route path="/:storeId/stock-management-goods-receipt/:state" element={<ReceiptBoardPage />} />
          <Route path="/:storeId/stock-management-goods-receipt-create/:type" element={<ReceiptFormPage />} />
          <Route path="/:storeId/stock-management-goods-receipt-edit/:type/:id" element={<ReceiptFormPage />} />
          <Route path="/:storeId/stock-management-goods-receipt-detail/:state/:id" element={<ReceiptDetailPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </Provider>,
  );
}

async function choose(testId: string, option: string) {
  const select = screen.getByTestId(testId).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(select.querySelector('[role="combobox"]') ?? select);
  const found = await screen.findAllByText(option);
  const el = found.find((o) => o.closest('.ant-select-item-option')) ?? found[found.length - 1];
  fireEvent.click(el.closest('.ant-select-item-option') ?? el);
}

const item = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const form = (body: string) => new URLSearchParams(body);

describe('the goods receipt board', () => {
  const BOARD = (counts: Record<string, number>, rows: unknown[] = []) => list(rows, { counts, limit: 10 });

  it('shows every tab with its count, the tab in the address, and switches tabs', async () => {
    const sent = serve(receipt(), (method, path) =>
      method === 'GET' && path === '/wms/goods-receipts'
        ? BOARD({ draft: 3, pending: 2, approved: 7, rejected: 1 }, [receipt({ state: 'received' })])
        : undefined,
    );
    renderAt('/1/stock-management-goods-receipt/pending');
    expect(await screen.findByText('GR2569-000001')).toBeInTheDocument();
    expect(screen.getByTestId('tab-draft')).toHaveTextContent('Draft');
    expect(screen.getByTestId('tab-draft-count')).toHaveTextContent('3');
    expect(screen.getByTestId('tab-pending-count')).toHaveTextContent('2');
    expect(screen.getByTestId('tab-approved-count')).toHaveTextContent('7');
    expect(screen.getByTestId('tab-rejected-count')).toHaveTextContent('1');
    expect(sent.some((s) => s.url.startsWith('/api/wms/goods-receipts?state=pending'))).toBe(true);
    const row = screen.getByText('GR2569-000001').closest('tr') as HTMLElement;
    expect(within(row).getByText('Checked')).toBeInTheDocument();
    expect(within(row).getByText('2 lines · 34 pcs')).toBeInTheDocument();
    expect(within(row).getByText('391.00')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('tab-rejected'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt/rejected');
    await waitFor(() => expect(sent.some((s) => s.url.startsWith('/api/wms/goods-receipts?state=rejected'))).toBe(true));

    await userEvent.click(screen.getByText('GR2569-000001'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/received/1');
  });

  it('searches and filters by type, and offers the three types to create', async () => {
    const sent = serve(receipt(), (method, path) =>
      method === 'GET' && path === '/wms/goods-receipts' ? BOARD({ draft: 0, pending: 0, approved: 0, rejected: 0 }) : undefined,
    );
    renderAt('/1/stock-management-goods-receipt/draft');
    expect(await screen.findByText('No drafts')).toBeInTheDocument();
    await userEvent.type(screen.getByPlaceholderText('Search receipt no. or note'), 'GR25{Enter}');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('?search=GR25'));
    await choose('receipt-type-filter', 'Parcels');
    await waitFor(() => expect(sent.some((s) => s.url === '/api/wms/goods-receipts?state=draft&search=GR25&type=parcel&page=1&limit=10')).toBe(true));

    await userEvent.click(screen.getByTestId('receipt-create'));
    expect(await screen.findByTestId('create-product')).toBeInTheDocument();
    expect(screen.getByTestId('create-parcel')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('create-material'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-create/material');
  });

  it('shows no create button without the right to create', async () => {
    serve(receipt(), (method, path) =>
      method === 'GET' && path === '/wms/goods-receipts' ? BOARD({ draft: 1, pending: 0, approved: 0, rejected: 0 }, [receipt()]) : undefined,
    );
    renderAt('/1/stock-management-goods-receipt/draft', 'admin', [P.wmsGoodsReceiptRead]);
    expect(await screen.findByText('GR2569-000001')).toBeInTheDocument();
    expect(screen.queryByTestId('receipt-create')).not.toBeInTheDocument();
  });
});

describe('the goods receipt form', () => {
  it('requires the warehouse and the date, and counts the note', async () => {
    const sent = serve(
      receipt(),
      undefined,
      list([
        {
          id: 2,
          code: 'OLD',
          name: 'คลังเก่า',
          is_default: true,
          active: false,
          created_at: '',
        },
      ]),
    );
    renderAt('/1/stock-management-goods-receipt-create/product');
    expect(await screen.findByText('New goods receipt: Products')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('field-note'), {
      target: { value: 'ด่วน' },
    });
    await waitFor(() => expect(item(screen.getByTestId('field-note'))).toHaveTextContent('4 / 500'));
    await userEvent.click(screen.getByTestId('receipt-save'));
    await waitFor(() => expect(item(screen.getByTestId('field-warehouseId'))).toHaveTextContent('This field is required'));
    expect(item(screen.getByTestId('field-expectedReceivedDate'))).toHaveTextContent('This field is required');
    expect(item(screen.getByTestId('line-0-sku'))).toHaveTextContent('This field is required');
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
  });

  it('shows the pieces of a carton line and the live totals, and creates the draft', async () => {
    const sent = serve(receipt(), (method, path) =>
      method === 'POST' && path === '/wms/goods-receipts' ? { status: 201, body: receipt({ id: 9, code: 'GR2569-000009' }) } : undefined,
    );
    renderAt('/1/stock-management-goods-receipt-create/product');
    await waitFor(() => expect(screen.getByTestId('field-warehouseId').closest('.ant-select')).toHaveTextContent('คลังหลัก'));
    await choose('line-0-sku', 'หมอนอิงลายช้าง · HM-021');
    await choose('line-0-unit', 'ลัง (12)');
    fireEvent.change(screen.getByTestId('line-0-qty'), {
      target: { value: '2' },
    });
    fireEvent.change(screen.getByTestId('line-0-cost'), {
      target: { value: '120.50' },
    });
    await waitFor(() => expect(screen.getByTestId('line-0-pieces')).toHaveTextContent('= 24 pieces'));
    expect(screen.getByTestId('total-pieces')).toHaveTextContent('24');
    expect(screen.getByTestId('total-cost')).toHaveTextContent('฿241.00');

    // The date, typed as shown in English.
    const date = screen.getByTestId('field-expectedReceivedDate');
    await userEvent.click(date);
    fireEvent.change(date, { target: { value: '28 Nov 2026' } });
    fireEvent.keyDown(date, { key: 'Enter', code: 'Enter' });
    await userEvent.click(screen.getByTestId('receipt-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST')).toBe(true));
    const body = form(sent.find((s) => s.method === 'POST')!.body);
    expect(body.get('type')).toBe('product');
    expect(body.get('warehouse_id')).toBe('1');
    expect(body.get('expected_received_date')).toBe('2026-11-28');
    expect(body.get('products[0][sku_id]')).toBe('27');
    expect(body.get('products[0][unit_id]')).toBe('3');
    expect(body.get('products[0][request_qty]')).toBe('2');
    expect(body.get('products[0][cost]')).toBe('120.50');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/draft/9'));
  });

  it("puts the server's field errors under their line's field", async () => {
    const sent = serve(receipt(), (method, path) =>
      method === 'PUT' && path === '/wms/goods-receipts/1'
        ? refusal(422, 'validation_failed', [
            { field: 'products[1].request_qty', code: 'validation.quantity' },
            { field: 'lines[0].sku_id', code: 'validation.duplicate' },
            { field: 'expected_received_date', code: 'validation.date' },
          ])
        : undefined,
    );
    renderAt('/1/stock-management-goods-receipt-edit/product/1');
    expect(await screen.findByText('Edit goods receipt GR2569-000001')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('line-1-sku').closest('.ant-select')).toHaveTextContent('สมุดโน้ต A5 (เปล่า) · BK-001-3'));
    await waitFor(() => expect(screen.getByTestId('line-0-pieces')).toHaveTextContent('= 24 pieces'));
    await userEvent.click(screen.getByTestId('receipt-save'));
    await waitFor(() => expect(item(screen.getByTestId('line-1-qty'))).toHaveTextContent('Not a valid quantity'));
    expect(item(screen.getByTestId('line-0-qty'))).not.toHaveTextContent('Not a valid quantity');
    expect(item(screen.getByTestId('line-0-sku'))).toHaveTextContent('This SKU is already on another line with the same unit and expiry date');
    expect(item(screen.getByTestId('field-expectedReceivedDate'))).toHaveTextContent('Not a valid date');
    const put = JSON.parse(sent.find((s) => s.method === 'PUT')!.body);
    expect(put.products).toEqual([
      {
        sku_id: 27,
        cost: '120.50',
        request_qty: 2,
        print_label: true,
        unit_id: 3,
        expired_at: '2027-05-01',
      },
      { sku_id: 26, cost: '15.00', request_qty: 10, print_label: false },
    ]);
    expect(put.expected_received_time).toBe('10:30');
  });

  it('asks for the pick-up details when the warehouse picks up', async () => {
    serve();
    renderAt('/1/stock-management-goods-receipt-create/parcel');
    expect(await screen.findByText('New goods receipt: Parcels')).toBeInTheDocument();
    expect(screen.queryByTestId('pick-up')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('field-isPickUp'));
    fireEvent.change(await screen.findByTestId('field-pickUp-tel'), {
      target: { value: '12' },
    });
    await userEvent.click(screen.getByTestId('receipt-save'));
    await waitFor(() => expect(item(screen.getByTestId('field-pickUp-tel'))).toHaveTextContent('A phone number has 9 or 10 digits'));
    expect(item(screen.getByTestId('field-pickUp-address'))).toHaveTextContent('This field is required');
    expect(item(screen.getByTestId('line-0-name'))).toHaveTextContent('This field is required');
  });
});

describe('a goods receipt', () => {
  it('offers edit, delete and send on a draft; sending follows the new state', async () => {
    const sent = serve(receipt(), (method, path) =>
      method === 'POST' && path === '/wms/goods-receipts/1/ready-to-warehouse' ? { status: 200, body: receipt({ state: 'pending' }) } : undefined,
    );
    renderAt('/1/stock-management-goods-receipt-detail/draft/1');
    expect(await screen.findByText('Goods receipt GR2569-000001')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-edit')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-delete')).toBeInTheDocument();
    expect(screen.getByTestId('receipt-labels')).toBeInTheDocument();
    expect(screen.queryByTestId('qc-card')).not.toBeInTheDocument();
    const lines = screen.getByTestId('receipt-lines');
    expect(within(lines).getByText('ลัง (12)')).toBeInTheDocument();
    expect(within(lines).getByText('1 May 2027')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('receipt-send'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/wms/goods-receipts/1/ready-to-warehouse')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/pending/1'));
  });

  it('counts a pending receipt at QC and approves it with the counts', async () => {
    const sent = serve(receipt({ state: 'pending' }), (method, path) =>
      method === 'POST' && path === '/wms/goods-receipts/1/qc-approve/in-store' ? { status: 200, body: receipt({ state: 'approved' }) } : undefined,
    );
    renderAt('/1/stock-management-goods-receipt-detail/pending/1');
    const table = await screen.findByTestId('qc-table');
    expect(screen.queryByTestId('receipt-edit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('receipt-send')).not.toBeInTheDocument();
    expect(within(table).getByTestId('qc-0-received')).toHaveValue('24');
    expect(within(table).getByTestId('qc-1-received')).toHaveValue('10');
    fireEvent.change(within(table).getByTestId('qc-0-received'), {
      target: { value: '20' },
    });
    fireEvent.change(within(table).getByTestId('qc-0-defective'), {
      target: { value: '2' },
    });
    await waitFor(() => expect(within(table).getByTestId('qc-0-good')).toHaveTextContent('18'));
    expect(within(table).getByText('Short')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('qc-approve'));
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('28 good pieces of GR2569-000001 go into stock at คลังหลัก.');
    await userEvent.click(screen.getByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/wms/goods-receipts/1/qc-approve/in-store')).toBe(true));
    const body = form(sent.find((s) => s.url === '/api/wms/goods-receipts/1/qc-approve/in-store')!.body);
    expect(Object.fromEntries(body)).toEqual({
      'items[0][id]': '1',
      'items[0][receive_qty]': '20',
      'items[0][defect_qty]': '2',
      'items[1][id]': '2',
      'items[1][receive_qty]': '10',
      'items[1][defect_qty]': '0',
    });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/approved/1'));
  });

  it('keeps defective pieces within those received', async () => {
    const sent = serve(receipt({ state: 'pending' }));
    renderAt('/1/stock-management-goods-receipt-detail/pending/1');
    const table = await screen.findByTestId('qc-table');
    fireEvent.change(within(table).getByTestId('qc-1-defective'), {
      target: { value: '11' },
    });
    await userEvent.click(screen.getByTestId('qc-check'));
    await waitFor(() => expect(item(within(table).getByTestId('qc-1-defective'))).toHaveTextContent('Defective pieces cannot be more than those received'));
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
  });

  it('rejects only with a reason', async () => {
    const sent = serve(
      receipt({
        state: 'received',
        items: [line(1, { receive_qty: 24, status: 'complete' })],
      }),
      (method, path) =>
        method === 'POST' && path === '/wms/goods-receipts/1/qc-reject'
          ? {
              status: 200,
              body: receipt({ state: 'rejected', reject_reason: 'ของเปียกน้ำ' }),
            }
          : undefined,
    );
    renderAt('/1/stock-management-goods-receipt-detail/received/1');
    await userEvent.click(await screen.findByTestId('qc-reject'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByText('Reject'));
    await waitFor(() => expect(item(screen.getByTestId('reject-reason-input'))).toHaveTextContent('This field is required'));
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByTestId('reject-reason-input'), {
      target: { value: 'ของเปียกน้ำ' },
    });
    await userEvent.click(within(dialog).getByText('Reject'));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/wms/goods-receipts/1/qc-reject')).toBe(true));
    expect(form(sent.find((s) => s.url === '/api/wms/goods-receipts/1/qc-reject')!.body).get('reason')).toBe('ของเปียกน้ำ');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/rejected/1'));
    expect(await screen.findByTestId('reject-reason')).toHaveTextContent('ของเปียกน้ำ');
  });

  it('shows no QC and no approve to a member without the right to approve', async () => {
    serve(receipt({ state: 'pending' }));
    renderAt('/1/stock-management-goods-receipt-detail/pending/1', 'admin', [P.wmsGoodsReceiptRead, P.wmsGoodsReceiptEdit]);
    expect(await screen.findByText('Waiting for the warehouse to check the goods')).toBeInTheDocument();
    expect(screen.queryByTestId('qc-table')).not.toBeInTheDocument();
    expect(screen.queryByTestId('qc-approve')).not.toBeInTheDocument();
    expect(screen.queryByTestId('qc-reject')).not.toBeInTheDocument();
    expect(screen.queryByTestId('receipt-edit')).not.toBeInTheDocument();
    expect(screen.getByTestId('receipt-print')).toBeInTheDocument();
  });

  it('puts the address right when the receipt has moved on, and puts away an approved one', async () => {
    const sent = serve(
      receipt({
        state: 'approved',
        decided_at: '2026-11-26T03:00:00Z',
        decided_by_name: 'มานี มีนา',
      }),
      (method, path) => (method === 'POST' && path === '/wms/goods-receipts/1/shelve' ? { status: 200, body: receipt({ state: 'shelving' }) } : undefined),
    );
    renderAt('/1/stock-management-goods-receipt-detail/draft/1');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/approved/1'));
    expect(screen.getByTestId('receipt-header')).toHaveTextContent('มานี มีนา');
    await userEvent.click(screen.getByTestId('receipt-start-shelving'));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/wms/goods-receipts/1/shelve')).toBe(true));
    expect(form(sent.find((s) => s.url === '/api/wms/goods-receipts/1/shelve')!.body).get('state')).toBe('shelving');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/shelving/1'));
  });

  it('opens the printed receipt in a new tab, and says when there are no labels', async () => {
    const tab = {
      document: { title: '', body: { textContent: '' } },
      location: { href: '' },
      close: jest.fn(),
    };
    const open = jest.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    Object.assign(URL, {
      createObjectURL: jest.fn(() => 'blob:receipt'),
      revokeObjectURL: jest.fn(),
    });
    const sent = serveBy((method, path) => {
      if (path === '/wms/goods-receipts/1') return { status: 200, body: receipt() };
      if (path === '/wms/goods-receipts/1/labels') return refusal(409, 'no_labels');
      return { status: 200, body: {} };
    });
    renderAt('/1/stock-management-goods-receipt-detail/draft/1');
    await userEvent.click(await screen.findByTestId('receipt-print'));
    await waitFor(() => expect(tab.location.href).toBe('blob:receipt'));
    expect(sent.some((s) => s.url === '/api/wms/goods-receipts/1/print')).toBe(true);
    await userEvent.click(screen.getByTestId('receipt-labels'));
    expect(await screen.findByText('No line is marked to print labels')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    open.mockRestore();
  });
});


describe('the goods receipts on a phone', () => {
  const desktopWidth = window.innerWidth;
  beforeEach(() => atWidth(390));
  afterEach(() => atWidth(desktopWidth));

  it('lists the receipts as cards, folds the type filter into the drawer and opens a receipt on a tap', async () => {
    const sent = serve(receipt(), (method, path) =>
      method === 'GET' && path === '/wms/goods-receipts'
        ? list([receipt({ state: 'received' }), receipt({ id: 2, code: 'GR2569-000002', type: 'parcel', state: 'pending', line_count: 1, total_request_qty: 3 })], {
            counts: { draft: 0, pending: 2, approved: 0, rejected: 0 },
            limit: 10,
          })
        : undefined,
    );
    renderAt('/1/stock-management-goods-receipt/pending');
    const card = await screen.findByTestId('receipt-1-card');
    expect(document.querySelector('.ant-table')).toBeNull();
    expect(card).toHaveTextContent('GR2569-000001');
    expect(card).toHaveTextContent('Products · คลังหลัก');
    expect(within(card).getByTestId('receipt-state')).toHaveTextContent('Checked');
    expect(within(card).getByTestId('receipt-1-lines')).toHaveTextContent('2 lines · 34 pcs');
    expect(card).toHaveTextContent('฿391.00');
    expect(screen.getByTestId('receipt-2-card')).toHaveTextContent('Parcels · คลังหลัก');
    expect(screen.getByTestId('receipt-create')).toBeInTheDocument();

    // The search stays in sight; the type waits in the drawer.
    expect(screen.getByTestId('receipt-search')).toBeInTheDocument();
    expect(screen.queryByTestId('receipt-type-filter')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('filters-open'));
    await choose('receipt-type-filter', 'Parcels');
    await waitFor(() => expect(sent.some((s) => s.url.includes('type=parcel'))).toBe(true));
    expect(screen.getByTestId('where')).toHaveTextContent('?type=parcel');

    await userEvent.click(screen.getByTestId('receipt-1-card'));
    expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/received/1');
  });

  it('counts at QC on cards with a numeric keypad, and approves from the bar at the bottom', async () => {
    const sent = serve(receipt({ state: 'pending' }), (method, path) =>
      method === 'POST' && path === '/wms/goods-receipts/1/qc-approve/in-store' ? { status: 200, body: receipt({ state: 'approved' }) } : undefined,
    );
    renderAt('/1/stock-management-goods-receipt-detail/pending/1');
    const card = await screen.findByTestId('qc-1-card');
    expect(document.querySelector('.ant-table')).toBeNull();
    expect(card).toHaveTextContent('HM-021');
    expect(card).toHaveTextContent('หมอนอิงลายช้าง');
    const received = within(card).getByTestId('qc-0-received');
    expect(received).toHaveAttribute('inputmode', 'numeric');
    expect(received).toHaveValue('24');
    fireEvent.change(received, { target: { value: '20' } });
    fireEvent.change(within(card).getByTestId('qc-0-defective'), { target: { value: '2' } });
    await waitFor(() => expect(within(card).getByTestId('qc-0-good')).toHaveTextContent('18'));
    expect(within(card).getByText('Short')).toBeInTheDocument();

    const bar = screen.getByTestId('qc-actions');
    expect(bar).toHaveClass('bo-bottom-bar');
    expect(within(bar).getByTestId('qc-reject')).toBeInTheDocument();
    await userEvent.click(within(bar).getByTestId('qc-approve'));
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(sent.some((s) => s.url === '/api/wms/goods-receipts/1/qc-approve/in-store')).toBe(true));
    expect(form(sent.find((s) => s.url === '/api/wms/goods-receipts/1/qc-approve/in-store')!.body).get('items[0][receive_qty]')).toBe('20');
  });

  it('shows a draft’s lines as cards, its actions at the bottom and the printing behind “more”', async () => {
    serve(receipt());
    renderAt('/1/stock-management-goods-receipt-detail/draft/1');
    const card = await screen.findByTestId('line-1-card');
    expect(document.querySelector('.ant-table')).toBeNull();
    expect(card).toHaveTextContent('2 × ลัง (12)');
    expect(card).toHaveTextContent('= 24 pieces');
    expect(screen.getByTestId('line-2-card')).toHaveTextContent('สมุดโน้ต A5');
    const bar = screen.getByTestId('receipt-actions');
    expect(within(bar).getByTestId('receipt-edit')).toBeInTheDocument();
    expect(within(bar).getByTestId('receipt-delete')).toBeInTheDocument();
    expect(within(bar).getByTestId('receipt-send')).toBeInTheDocument();
    expect(screen.queryByTestId('receipt-print')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('more-actions'));
    expect(await screen.findByTestId('receipt-print')).toBeInTheDocument();
  });

  it('writes a draft in one column: each line a box, numeric keypads, the save button at the bottom', async () => {
    const sent = serve(receipt(), (method, path) =>
      method === 'POST' && path === '/wms/goods-receipts' ? { status: 201, body: receipt({ id: 9, code: 'GR2569-000009' }) } : undefined,
    );
    renderAt('/1/stock-management-goods-receipt-create/product');
    await waitFor(() => expect(screen.getByTestId('field-warehouseId').closest('.ant-select')).toHaveTextContent('คลังหลัก'));
    expect(document.querySelector('.ant-table')).toBeNull();
    const line = screen.getByTestId('line-0');
    expect(line).toHaveTextContent('Line 1');
    expect(within(line).getByTestId('line-0-qty')).toHaveAttribute('inputmode', 'numeric');
    expect(within(line).getByTestId('line-0-cost')).toHaveAttribute('inputmode', 'decimal');
    await choose('line-0-sku', 'หมอนอิงลายช้าง · HM-021');
    await choose('line-0-unit', 'ลัง (12)');
    fireEvent.change(screen.getByTestId('line-0-qty'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('line-0-cost'), { target: { value: '120.50' } });
    await waitFor(() => expect(screen.getByTestId('line-0-pieces')).toHaveTextContent('= 24 pieces'));
    expect(screen.getByTestId('line-0-total')).toHaveTextContent('241.00');
    expect(screen.getByTestId('total-cost')).toHaveTextContent('฿241.00');

    await userEvent.click(screen.getByTestId('add-line'));
    expect(await screen.findByTestId('line-1')).toHaveTextContent('Line 2');
    await userEvent.click(screen.getByTestId('line-1-remove'));
    await waitFor(() => expect(screen.queryByTestId('line-1')).not.toBeInTheDocument());

    const date = screen.getByTestId('field-expectedReceivedDate');
    await userEvent.click(date);
    fireEvent.change(date, { target: { value: '28 Nov 2026' } });
    fireEvent.keyDown(date, { key: 'Enter', code: 'Enter' });
    const bar = screen.getByTestId('receipt-form-actions');
    expect(bar).toHaveClass('bo-bottom-bar');
    await userEvent.click(within(bar).getByTestId('receipt-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/stock-management-goods-receipt-detail/draft/9'));
  });
});
