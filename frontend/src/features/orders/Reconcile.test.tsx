import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { renderAt, serve } from './testing';

const line = (row: number, over: Record<string, unknown>) => ({
  row,
  at: '2026-11-26T02:15:00.000Z',
  day_only: false,
  amount: '738.00',
  text: 'รับโอนเงิน',
  tracking: '',
  status: 'confident',
  bill_id: 5,
  reasons: [{ code: 'amount_in_time', values: { amount: '738.00' } }],
  candidates: [{ bill_id: 5, order_id: 9, order_no: 'SO2569-000009', amount: '738.00', evidence: [] }],
  confirmed: false,
  refused: null,
  ...over,
});

const answer = (confirmed: boolean) => ({
  status: 200,
  body: {
    data: {
      kind: 'bank',
      confirmed: confirmed ? 1 : 0,
      lines: [
        line(3, { confirmed }),
        line(4, {
          amount: '999.00',
          status: 'unmatched',
          bill_id: null,
          reasons: [{ code: 'no_bill_of_amount', values: { amount: '999.00' } }],
          candidates: [],
        }),
        line(5, {
          amount: '199.00',
          status: 'ambiguous',
          bill_id: null,
          reasons: [{ code: 'many_bills', values: { amount: '199.00', count: '2' } }],
          candidates: [
            { bill_id: 7, order_id: 11, order_no: 'SO2569-000011', amount: '199.00', evidence: [] },
            { bill_id: 8, order_id: 12, order_no: 'SO2569-000012', amount: '199.00', evidence: [{ code: 'name', values: { name: 'มานี' } }] },
          ],
        }),
      ],
    },
    errors: [],
  },
});

describe('reconcile payments', () => {
  it('matches a statement, explains each line, and confirms the confident ones in one step', async () => {
    let calls = 0;
    serve((method, path) => (path === '/orders/payments/reconcile' && method === 'POST' ? answer(calls++ > 0) : undefined));
    // What each upload carried besides its file.
    const fields: [string, string][] = [];
    const append = jest.spyOn(FormData.prototype, 'append').mockImplementation(function (this: FormData, name: string, value: string | Blob) {
      if (typeof value === 'string') fields.push([name, value]);
    });
    renderAt('/1/order-payment-reconcile');
    const input = (await screen.findByTestId('reconcile-page')).querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['date,amount'], 'statement.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('reconcile-summary')).toHaveTextContent('Bank statement: 3 lines in — 1 confident, 1 ambiguous, 1 unmatched');
    const confident = screen.getByTestId('reconcile-confident');
    expect(within(confident).getByText('SO2569-000009')).toBeInTheDocument();
    expect(within(confident).getByText('The only open bill of 738.00 baht made before this transfer')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('reconcile-tab-unmatched'));
    expect(within(screen.getByTestId('reconcile-unmatched')).getByText('No open bill of 999.00 baht')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('reconcile-tab-ambiguous'));
    expect(within(screen.getByTestId('reconcile-ambiguous')).getByText('2 open bills of 199.00 baht and nothing tells them apart')).toBeInTheDocument();
    expect(screen.getByTestId('reconcile-confirm-chosen')).toBeDisabled();

    await userEvent.click(screen.getByTestId('reconcile-tab-confident'));
    await userEvent.click(screen.getByTestId('reconcile-confirm'));
    expect(await screen.findByTestId('reconcile-confirmed')).toHaveTextContent('Confirmed');
    append.mockRestore();
    expect(fields.filter(([k]) => k === 'dry_run').map(([, v]) => v)).toEqual(['true', 'false']);
    expect(JSON.parse(fields.filter(([k]) => k === 'choices')[1][1])).toEqual([{ row: 3, bill_id: 5 }]);
    await waitFor(() => expect(screen.getByTestId('reconcile-confirm')).toBeDisabled());
  });

  it('says what is wrong with a file that is not a statement', async () => {
    serve((method, path) =>
      path === '/orders/payments/reconcile'
        ? { status: 422, body: { error: { code: 'validation_failed', message_key: 'x', message: 'x', fields: [{ field: 'file', code: 'statement_columns_not_found' }] } } }
        : undefined,
    );
    renderAt('/1/order-payment-reconcile');
    const input = (await screen.findByTestId('reconcile-page')).querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['x'], 'list.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('reconcile-error')).toHaveTextContent('The file has no date and amount-in columns');
  });
});
