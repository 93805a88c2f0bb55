import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { Pager } from './Pager';

describe('Pager', () => {
  it('shows at most seven page buttons with ellipses and the total', () => {
    render(<Pager page={10} pages={20} total={195} onChange={() => undefined} />);
    const nav = screen.getByTestId('pager');
    expect(nav).toHaveTextContent('195 in all');
    for (const p of ['1', '9', '10', '11', '20']) expect(screen.getByRole('button', { name: p })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '8' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '10' })).toHaveAttribute('aria-current', 'page');
    expect(nav.querySelectorAll('.bo-pager-ellipsis')).toHaveLength(2);
  });

  it('clamps the typed page to 1..last', async () => {
    const onChange = jest.fn();
    render(<Pager page={1} pages={5} total={50} onChange={onChange} />);
    const input = screen.getByRole('spinbutton', { name: 'Go to' });
    await userEvent.type(input, '99{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(5);
    await userEvent.type(input, '0{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(1);
  });

  it('moves one page at a time and stops at the ends', async () => {
    const onChange = jest.fn();
    render(<Pager page={1} pages={3} total={30} onChange={onChange} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange).toHaveBeenCalledWith(2);
  });
});
