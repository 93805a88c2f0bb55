import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { Filters } from './Filters';
import { atWidth, DESKTOP, PHONE } from '@/shared/testing/viewport';

afterEach(() => atWidth(DESKTOP));

const filters = (onClear = jest.fn(), active = 2) => (
  <Filters active={active} onClear={onClear} search={<input aria-label="Search orders" />}>
    <select aria-label="Channel" />
    <select aria-label="Payment" />
  </Filters>
);

describe('Filters', () => {
  it('sit in a row on a desktop, with a way to clear them', async () => {
    const onClear = jest.fn();
    render(filters(onClear));
    const row = screen.getByTestId('filters');
    expect(within(row).getByLabelText('Search orders')).toBeVisible();
    expect(within(row).getByLabelText('Channel')).toBeInTheDocument();
    expect(screen.queryByTestId('filters-open')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('filter-clear'));
    expect(onClear).toHaveBeenCalled();
  });

  it('fold into a drawer on a phone, the search in sight and the count on the button', async () => {
    atWidth(PHONE);
    const onClear = jest.fn();
    render(filters(onClear));
    expect(screen.getByLabelText('Search orders')).toBeInTheDocument();
    expect(screen.queryByLabelText('Channel')).not.toBeInTheDocument();
    const open = screen.getByTestId('filters-open');
    expect(open.closest('.ant-badge')).toHaveTextContent('2');
    await userEvent.click(open);
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('Filters (2 in force)')).toBeInTheDocument();
    expect(within(drawer).getByLabelText('Channel')).toBeInTheDocument();
    expect(within(drawer).getByLabelText('Payment')).toBeInTheDocument();
    await userEvent.click(within(drawer).getByTestId('filter-clear'));
    expect(onClear).toHaveBeenCalled();
    await userEvent.click(within(drawer).getByTestId('filters-done'));
  });

  it('show no count and no clearing when none is in force', async () => {
    atWidth(PHONE);
    render(filters(jest.fn(), 0));
    expect(screen.getByTestId('filters-open').closest('.ant-badge')).not.toHaveTextContent(/\d/);
    await userEvent.click(screen.getByTestId('filters-open'));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('Filters')).toBeInTheDocument();
    expect(within(drawer).queryByTestId('filter-clear')).not.toBeInTheDocument();
  });
});
