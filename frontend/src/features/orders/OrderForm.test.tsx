import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';

import type { Reply } from '@/shared/testing/fakeApi';
import { closeAllDialogs } from '@/shared/dialogs/dialogs';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { address, formBody, list, order, refusal, renderAt, serve } from './testing';

fastComputedStyle();
jest.setTimeout(90_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

beforeEach(() => {
  localStorage.clear();
  closeAllDialogs();
});

const SKUS = list([
  {
    sku_id: 27,
    sku_code: 'HM-021',
    product_id: 12,
    product_name: 'หมอนอิงลายช้าง',
    option1: '',
    option2: '',
    safety_stock: 0,
    inventory: { warehouse_id: 1, available: 5, preorder: 0, quantity: 5, reserve: 0 },
  },
]);
const PRODUCT = {
  status: 200,
  body: {
    id: 12,
    name: 'หมอนอิงลายช้าง',
    code: 'HM',
    weight: '0.300',
    price: '199.00',
    cost: '120.00',
    skus: [{ id: 27, code: 'HM-021', price: '199.00', cost: '120.00', status: 'active', safety_stock: 0, barcode: '', variant_option: {}, inventories: [] }],
  },
};
const CUSTOMER = {
  status: 200,
  body: { id: 4, default_address_id: 6, address_count: 2, ...address },
};
const BOOK = list([
  { id: 6, customer_id: 4, is_default: true, ...address },
  { id: 7, customer_id: 4, is_default: false, ...address, name: 'ที่ทำงาน', address: '1 ถนนสีลม', sub_district: 'สีลม', district: 'บางรัก', postcode: '10500' },
]);
const LOGISTICS = list([
  { id: 3, warehouse_id: 1, name: 'ไปรษณีย์ไทย EMS', provider_name: 'thaipost', provider: { name_th: 'ไปรษณีย์ไทย', name_en: 'Thailand Post' }, cod: false, status: 'active', brackets: [] },
]);
const QUOTE = list([{ store_channel: { id: 3 }, available: true, price: '40.00', reason: '', chargeable_weight: '0.600' }]);

/** The gateway of the form: a customer with two addresses, one SKU, one shipping channel
 * priced 40 baht; `over` answers first. */
function serveForm(over: (method: string, path: string) => Reply | undefined = () => undefined) {
  return serve((method, path) => {
    const own = over(method, path);
    if (own) return own;
    if (path === '/products/sku-inventories') return SKUS;
    if (path === '/products/12') return PRODUCT;
    if (path === '/stores/1/customers/4') return CUSTOMER;
    if (path === '/stores/1/customers/4/addresses') return BOOK;
    if (path === '/logistics/store-channels') return LOGISTICS;
    if (path === '/logistics/shipping-price/quotes') return QUOTE;
    return undefined;
  });
}

async function choose(testId: string, option: string) {
  const select = screen.getByTestId(testId).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(select.querySelector('[role="combobox"]') ?? select);
  const found = await screen.findAllByText(option);
  const el = found.find((o) => o.closest('.ant-select-item-option')) ?? found[found.length - 1];
  fireEvent.click(el.closest('.ant-select-item-option') ?? el);
}

const field = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const typeIn = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('the order form', () => {
  it('asks for the channel and a product before sending anything', async () => {
    const sent = serveForm();
    renderAt('/1/order-create');
    expect(await screen.findByText('Create order', { selector: 'h1' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('field-warehouseId').closest('.ant-select')).toHaveTextContent('คลังหลัก'));
    typeIn('field-receiver-tel', '12');
    await userEvent.click(screen.getByTestId('order-save'));
    await waitFor(() => expect(field(screen.getByTestId('field-channel'))).toHaveTextContent('This field is required'));
    expect(field(screen.getByTestId('line-0-sku'))).toHaveTextContent('This field is required');
    expect(field(screen.getByTestId('field-receiver-tel'))).toHaveTextContent('A phone number has 9 or 10 digits');
    expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders')).toBe(false);
  });

  it("takes the sales channel, warehouse and shipping channel of one of the shop's own channels", async () => {
    const sent = serveForm((method, path) => {
      if (path === '/marketplaces/own-channels') {
        return list([{ id: 5, name: 'ร้านไลน์', channel: 'line', warehouse_id: 2, logistic_channel_id: 3, payment_channel_id: 9, status: 'active', created_at: '', updated_at: '', version: 1 }]);
      }
      return undefined;
    });
    renderAt('/1/order-create');
    await waitFor(() => expect(screen.getByTestId('field-warehouseId').closest('.ant-select')).toHaveTextContent('คลังหลัก'));
    await choose('field-ownChannel', 'ร้านไลน์ · LINE');
    await waitFor(() => expect(screen.getByTestId('field-channel').closest('.ant-select')).toHaveTextContent('LINE'));
    expect(screen.getByTestId('field-warehouseId').closest('.ant-select')).toHaveTextContent('คลังเชียงใหม่');
    await waitFor(() => expect(screen.getByTestId('field-channelId').closest('.ant-select')).toHaveTextContent('ไปรษณีย์ไทย EMS'));
    // Only the active ones are asked for.
    const asked = sent.find((s) => s.url.startsWith('/api/marketplaces/own-channels'))!;
    expect(asked.url).toBe('/api/marketplaces/own-channels?status=active');
  });

  it('prefills from its address, prices the lines and shipping as the server will, and creates the order', async () => {
    const sent = serveForm((method, path) => (method === 'POST' && path === '/orders' ? { status: 201, body: order() } : undefined));
    renderAt('/1/order-create/detail?channel=facebook&customerId=4');
    await waitFor(() => expect(screen.getByTestId('field-channel').closest('.ant-select')).toHaveTextContent('Facebook'));
    // The customer's book, their default address chosen.
    const book = await screen.findByTestId('address-choice');
    const radio = (id: number) => {
      const el = within(book).getByTestId(`address-${id}`);
      return el.tagName === 'INPUT' ? el : (el.querySelector('input') as HTMLElement);
    };
    await waitFor(() => expect(radio(6)).toBeChecked());
    expect(radio(7)).not.toBeChecked();
    expect(within(book).getByText(/1 ถนนสีลม สีลม บางรัก/)).toBeInTheDocument();
    expect(screen.queryByTestId('typed-address')).not.toBeInTheDocument();

    await choose('line-0-sku', 'หมอนอิงลายช้าง · HM-021 — 5 available');
    await waitFor(() => expect(screen.getByTestId('line-0-price')).toHaveValue('199.00'));
    typeIn('line-0-qty', '2');
    await waitFor(() => expect(screen.getByTestId('line-0-total')).toHaveTextContent('398.00'));
    await choose('field-channelId', 'ไปรษณีย์ไทย EMS (ไปรษณีย์ไทย)');
    expect(await screen.findByTestId('quote-price')).toHaveTextContent('The channel prices it at ฿40.00');
    const quote = sent.find((s) => s.url === '/api/logistics/shipping-price/quotes')!;
    expect(Object.fromEntries(formBody(quote.body))).toEqual({ warehouse_id: '1', weight: '0.600', postcode: '10110', country: 'TH', order_total: '398.00', cod: 'false' });
    await waitFor(() => expect(screen.getByTestId('total-total')).toHaveTextContent('฿438.00'));
    expect(screen.getByTestId('total-shipping')).toHaveTextContent('฿40.00');
    // 438.00 with VAT included: 28.65 of it is VAT.
    expect(screen.getByTestId('total-vat')).toHaveTextContent('฿28.65');

    // A fixed discount of 20 baht and VAT added on top.
    await userEvent.click(screen.getByText('Baht'));
    typeIn('field-discountValue', '20');
    await userEvent.click(screen.getByTestId('field-vatIncluded'));
    // 398 − 20 = 378; + 40 = 418; + 7% = 29.26 → 447.26.
    await waitFor(() => expect(screen.getByTestId('total-total')).toHaveTextContent('฿447.26'));
    expect(screen.getByTestId('total-discount')).toHaveTextContent('-฿20.00');

    await userEvent.click(screen.getByTestId('order-save'));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders')).toBe(true));
    const body = formBody(sent.find((s) => s.method === 'POST' && s.url === '/api/orders')!.body);
    expect(Object.fromEntries(body)).toEqual({
      channel: 'facebook',
      reference: '',
      note: '',
      warehouse_id: '1',
      customer_id: '4',
      customer_address_id: '6',
      'items[0][sku_id]': '27',
      'items[0][quantity]': '2',
      'items[0][note]': '',
      'items[0][price]': '199.00',
      discount_type: 'fixed',
      discount_value: '20',
      vat_included: 'false',
      logistic_store_channel_id: '3',
      cod: 'false',
    });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/1/order-detail/9'));
  });

  it('refuses a warehouse bill over 50,000 baht before sending', async () => {
    const sent = serveForm();
    renderAt('/1/order-create?channel=line');
    await choose('field-channel', 'LINE');
    await choose('line-0-sku', 'หมอนอิงลายช้าง · HM-021 — 5 available');
    await waitFor(() => expect(screen.getByTestId('line-0-price')).toHaveValue('199.00'));
    typeIn('line-0-price', '25000.01');
    typeIn('line-0-qty', '2');
    expect(await screen.findByTestId('over-limit')).toHaveTextContent('Product value per order cannot exceed 50,000.00 baht per warehouse bill');
    await userEvent.click(screen.getByTestId('order-save'));
    expect(await screen.findByTestId('dialog-title')).toHaveTextContent('Order value exceeds the limit');
    expect(sent.some((s) => s.method === 'POST' && s.url === '/api/orders')).toBe(false);
  });

  it('edits an order with its version, and shows the server\'s refusal under its fields', async () => {
    const typed = order({ customer_id: 0, discount: { type: 'percent', value: '10.00', amount: '39.80' } });
    const sent = serveForm((method, path) => {
      if (method === 'GET' && path === '/orders/9') return { status: 200, body: typed };
      if (method === 'PATCH' && path === '/orders/9') {
        return refusal(422, 'validation_failed', [
          { field: 'items[0].sku_id', code: 'order.sku_unknown' },
          { field: 'shipping_address.postcode', code: 'validation.postcode' },
          { field: 'logistic_store_channel_id', code: 'shipping.over_weight' },
        ]);
      }
      return undefined;
    });
    renderAt('/1/order-edit/9');
    expect(await screen.findByText('Edit order SO2569-000009')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('line-0-sku').closest('.ant-select')).toHaveTextContent('หมอนอิงลายช้าง · HM-021'));
    expect(screen.getByTestId('field-receiver')).toHaveValue('สมชาย ใจดี');
    expect(screen.getByTestId('field-shippingCharge')).toHaveValue('40.00');
    expect(screen.getByTestId('field-discountValue')).toHaveValue('10.00');
    await waitFor(() => expect(screen.getByTestId('total-total')).toHaveTextContent('฿398.20'));
    await userEvent.click(screen.getByTestId('order-save'));
    await waitFor(() => expect(field(screen.getByTestId('line-0-sku'))).toHaveTextContent('This SKU is not in the store'));
    expect(field(screen.getByTestId('field-postcode'))).toHaveTextContent('A postcode has 5 digits');
    expect(field(screen.getByTestId('field-channelId'))).toHaveTextContent('Too heavy for this channel');
    const patch = JSON.parse(sent.find((s) => s.method === 'PATCH')!.body);
    expect(patch).toMatchObject({ version: 4, discount_type: 'percent', discount_value: '10.00', shipping_charge: '40.00', items: [{ sku_id: 27, quantity: 2, price: '199.00' }] });
    expect(patch.shipping_address.postcode).toBe('10110');
  });

  it('clears the products when the warehouse changes, once confirmed', async () => {
    serveForm((method, path) => (method === 'GET' && path === '/orders/9' ? { status: 200, body: order() } : undefined));
    renderAt('/1/order-edit/9');
    await waitFor(() => expect(screen.getByTestId('line-0-sku').closest('.ant-select')).toHaveTextContent('HM-021'));
    await choose('field-warehouseId', 'คลังเชียงใหม่');
    expect(await screen.findByTestId('dialog-message')).toHaveTextContent('changing it clears the chosen products');
    await userEvent.click(screen.getByText('Cancel', { selector: '.bo-dialog button span' }));
    expect(screen.getByTestId('field-warehouseId').closest('.ant-select')).toHaveTextContent('คลังหลัก');
    expect(screen.getByTestId('line-0-sku').closest('.ant-select')).toHaveTextContent('HM-021');
    await choose('field-warehouseId', 'คลังเชียงใหม่');
    await userEvent.click(await screen.findByTestId('dialog-ok'));
    await waitFor(() => expect(screen.getByTestId('field-warehouseId').closest('.ant-select')).toHaveTextContent('คลังเชียงใหม่'));
    expect(screen.getByTestId('line-0-sku').closest('.ant-select')).not.toHaveTextContent('HM-021');
    expect(screen.getByTestId('field-channelId').closest('.ant-select')).toHaveTextContent('No shipping channel');
  });
});
