import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';

import { decide } from '@/app/guard';
import { SETTINGS, visibleEntries } from '@/app/menu';
import { P } from '@/shared/permissions.gen';
import { refusal, serveBy, type Reply } from '@/shared/testing/fakeApi';
import { fastComputedStyle } from '@/shared/testing/fastStyles';
import { signedInStore } from '@/shared/testing/session';
import FeePlanPage, { checkFee, checkPercent, planInput, twoDecimals } from './FeePlanPage';
import { ROUTES } from './routes';

// antd tables, modals and forms render slowly in jsdom.
fastComputedStyle();
jest.setTimeout(60_000);
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 });

const PATH = '/wms/warehouse-stores/pricing-plans/parcel-billing-by';

/** A `FeePlanBody` as the gateway sends it (snake_case). */
const plan = (warehouse_id: number, warehouse_name: string, extra: Record<string, unknown> = {}) => ({
  warehouse_id,
  warehouse_name,
  receipt_line: '0.00',
  shelving: '0.00',
  pick: '0.00',
  pack: '0.00',
  packaging: '0.00',
  material: '0.00',
  additional: '0.00',
  shipping: '0.00',
  cod_percent: '0.00',
  updated_at: '',
  ...extra,
});
const MAIN = plan(1, 'คลังหลัก', { receipt_line: '12.50', shelving: '1.50', pick: '2.00', pack: '15.00', packaging: '0.00', material: '3.25', additional: '5.00', shipping: '45.00', cod_percent: '2.50', updated_at: '2026-11-20T03:00:00Z' });
const SIAM = plan(2, 'คลังสยาม');

/** The plans, and the answer to a save (the saved plan by default). */
function serve(onSave?: () => Reply) {
  return serveBy((method, path) => {
    if (method === 'GET' && path === PATH) return { status: 200, body: { data: [MAIN, SIAM] } };
    if (method === 'PUT' && path === `${PATH}/2`) return onSave?.() ?? { status: 200, body: { ...SIAM, receipt_line: '5.00', cod_percent: '3.00', updated_at: '2026-11-27T03:00:00Z' } };
    return { status: 404 };
  });
}

function renderPage() {
  render(
    <Provider store={signedInStore('owner')}>
      <MemoryRouter initialEntries={['/1/setting/warehouse-fee']}>
        <Routes>
          <Route path="/:storeId/setting/warehouse-fee" element={<FeePlanPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

/** Opens the plan of the Siam warehouse and types its new rates. */
async function editSiam() {
  await userEvent.click(await screen.findByTestId('fee-plan-2-edit'));
  const form = await screen.findByTestId('fee-plan-form');
  expect(screen.getByText('Service fees of คลังสยาม')).toBeInTheDocument();
  expect(within(form).getByText('Charged for each line of a goods receipt once it is approved')).toBeInTheDocument();
  expect(within(form).getByText("Charged for each parcel packed in a box from the warehouse's catalogue; 0 charges the box's catalogue price")).toBeInTheDocument();
  fireEvent.change(screen.getByTestId('field-receiptLine'), { target: { value: '5' } });
  fireEvent.change(screen.getByTestId('field-codPercent'), { target: { value: '3' } });
  await userEvent.click(screen.getByTestId('fee-plan-save'));
}

describe('the warehouse fee plans', () => {
  it('lists every warehouse with its rates and saves one warehouse\'s, two decimals each', async () => {
    const sent = serve();
    renderPage();
    const main = (await screen.findByTestId('fee-plan-1')).closest('tr')!;
    expect(main).toHaveTextContent('คลังหลัก12.501.502.0015.000.003.255.0045.002.50%');
    const siam = screen.getByTestId('fee-plan-2').closest('tr')!;
    expect(siam).toHaveTextContent('Not set yet');
    expect(screen.getByTestId('fee-plan-table')).toHaveTextContent('COD fee (%)');

    await editSiam();
    expect(await screen.findByText('Service fees of คลังสยาม saved')).toBeInTheDocument();
    const put = sent.find((s) => s.method === 'PUT')!;
    expect(put.url).toBe(`/api${PATH}/2`);
    expect(JSON.parse(put.body)).toEqual({
      receipt_line: '5.00',
      shelving: '0.00',
      pick: '0.00',
      pack: '0.00',
      packaging: '0.00',
      material: '0.00',
      additional: '0.00',
      shipping: '0.00',
      cod_percent: '3.00',
    });
    // The list is asked again once saved.
    await waitFor(() => expect(sent.filter((s) => s.method === 'GET' && s.url === `/api${PATH}`)).toHaveLength(2));
  });

  it('puts the gateway\'s refusal under its field and keeps the form open', async () => {
    serve(() =>
      refusal(422, 'validation_failed', [
        { field: 'pick', code: 'validation.fee' },
        { field: 'cod_percent', code: 'validation.percent' },
      ]),
    );
    renderPage();
    await editSiam();
    const message = await screen.findByText('A percent from 0 to 100 with at most two decimals');
    expect(message.closest('.ant-form-item')).toContainElement(screen.getByTestId('field-codPercent'));
    const fee = screen.getByText('A fee is 0 to 100,000 baht with at most two decimals');
    expect(fee.closest('.ant-form-item')).toContainElement(screen.getByTestId('field-pick'));
    expect(screen.getByTestId('fee-plan-form')).toBeInTheDocument();
  });

  it('checks the rates as the service does', () => {
    expect(checkPercent('2.5')).toBeNull();
    expect(checkPercent('100')).toBeNull();
    expect(checkPercent('100.01')).toBe('validation.percent');
    expect(checkPercent('1.234')).toBe('validation.percent');
    expect(checkPercent('')).toBe('validation.required');
    expect(checkFee('100000')).toBeNull();
    expect(checkFee('0')).toBeNull();
    expect(checkFee('100000.01')).toBe('validation.fee');
    expect(checkFee('-1')).toBe('validation.fee');
    expect(checkFee(null)).toBe('validation.required');
    expect(twoDecimals('12.5')).toBe('12.50');
    expect(twoDecimals(0.1)).toBe('0.10');
    expect(twoDecimals('100000')).toBe('100000.00');
    expect(planInput({ receiptLine: '1', shelving: 2.5, pick: '0.05', pack: '10', packaging: '0', material: null, additional: '7.25', shipping: '40', codPercent: '2.5' })).toEqual({
      receiptLine: '1.00',
      shelving: '2.50',
      pick: '0.05',
      pack: '10.00',
      packaging: '0.00',
      material: '0.00',
      additional: '7.25',
      shipping: '40.00',
      codPercent: '2.50',
    });
  });

  it('is the owner\'s alone: no one else sees it in the settings or opens it', () => {
    const paths = (permission: string, permissions: string[]) => visibleEntries(SETTINGS, { permission, permissions }, []).map((e) => e.path);
    expect(paths('owner', [])).toContain('setting/warehouse-fee');
    expect(paths('admin', [P.storeAll, 'wms.*'])).not.toContain('setting/warehouse-fee');
    const route = ROUTES.find((r) => r.path === 'setting/warehouse-fee')!;
    const session = (permission: string) => ({ userToken: 'u', stores: { '1': { token: 's', permission, permissions: ['*'], roleName: permission, expiresAt: '' } } });
    const open = (permission: string) => decide({ pathname: '/1/setting/warehouse-fee', storeIdParam: '1', route: { store: true, ...route.access }, session: session(permission) });
    expect(open('owner')).toEqual({ kind: 'allow', storeId: 1 });
    expect(open('admin')).toEqual({ kind: 'redirect', to: '/1/access-denied?pathName=%2F1%2Fsetting%2Fwarehouse-fee' });
  });
});
