import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type Key } from 'react';

import { ListView, LONG_PRESS_MS } from './ListView';
import { atWidth, DESKTOP, PHONE } from '@/shared/testing/viewport';

interface Row {
  id: number;
  name: string;
  qty: number;
}
const rows: Row[] = [
  { id: 1, name: 'สบู่ขมิ้น', qty: 3 },
  { id: 2, name: 'แชมพูมะกรูด', qty: 5 },
];
const columns = [
  { title: 'Name', dataIndex: 'name', key: 'name' },
  { title: 'Quantity', key: 'qty', render: (_: unknown, r: Row) => <span data-testid={`qty-${r.id}`}>{r.qty} pcs</span> },
];

function Chooser({ onOpen }: { onOpen: (r: Row) => void }) {
  const [chosen, setChosen] = useState<Key[]>([]);
  return (
    <>
      <span data-testid="chosen">{chosen.join(',')}</span>
      <ListView<Row>
        rowKey="id"
        columns={columns}
        dataSource={rows}
        pagination={false}
        rowSelection={{ selectedRowKeys: chosen, onChange: setChosen }}
        onOpen={onOpen}
        card={(r) => <strong>{r.name}</strong>}
        data-testid="rows"
      />
    </>
  );
}

afterEach(() => atWidth(DESKTOP));

describe('ListView', () => {
  it('is a table on a desktop', () => {
    render(<ListView<Row> rowKey="id" columns={columns} dataSource={rows} pagination={false} card={(r) => r.name} data-testid="rows" />);
    expect(screen.getByTestId('rows')).not.toHaveAttribute('data-view');
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByTestId('card-1')).not.toBeInTheDocument();
  });

  it('is cards on a phone, each opened by a tap', async () => {
    atWidth(PHONE);
    const onOpen = jest.fn();
    render(<ListView<Row> rowKey="id" columns={columns} dataSource={rows} pagination={false} onOpen={onOpen} card={(r) => <strong>{r.name}</strong>} data-testid="rows" />);
    const list = screen.getByTestId('rows');
    expect(list).toHaveAttribute('data-view', 'cards');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await userEvent.click(screen.getByText('แชมพูมะกรูด'));
    expect(onOpen).toHaveBeenCalledWith(rows[1]);
  });

  it('turns with the screen, keeping what is chosen', () => {
    render(<Chooser onOpen={() => undefined} />);
    fireEvent.click(screen.getAllByRole('checkbox')[1]);
    expect(screen.getByTestId('chosen')).toHaveTextContent('1');
    atWidth(PHONE);
    expect(screen.getByTestId('card-1')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('card-2')).toHaveAttribute('aria-selected', 'false');
  });

  it('chooses cards by a long press, then by taps, and lets go of them', async () => {
    atWidth(PHONE);
    jest.useFakeTimers();
    const onOpen = jest.fn();
    try {
      render(<Chooser onOpen={onOpen} />);
      const first = screen.getByTestId('card-1');
      fireEvent.pointerDown(first, { clientX: 10, clientY: 10 });
      act(() => {
        jest.advanceTimersByTime(LONG_PRESS_MS + 10);
      });
      fireEvent.pointerUp(first);
      // The click that ends a long press opens nothing.
      fireEvent.click(first);
      expect(onOpen).not.toHaveBeenCalled();
      expect(screen.getByTestId('chosen')).toHaveTextContent('1');
      // Choosing: a tap chooses another, a tap again lets it go.
      fireEvent.click(screen.getByTestId('card-2'));
      expect(screen.getByTestId('chosen')).toHaveTextContent('1,2');
      fireEvent.click(screen.getByTestId('card-2'));
      expect(screen.getByTestId('chosen')).toHaveTextContent(/^1$/);
      fireEvent.click(screen.getByTestId('list-select-done'));
      expect(screen.getByTestId('chosen')).toHaveTextContent(/^$/);
      fireEvent.click(screen.getByTestId('card-2'));
      expect(onOpen).toHaveBeenCalledWith(rows[1]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a finger that scrolls the list chooses nothing', () => {
    atWidth(PHONE);
    jest.useFakeTimers();
    try {
      render(<Chooser onOpen={() => undefined} />);
      const first = screen.getByTestId('card-1');
      fireEvent.pointerDown(first, { clientX: 10, clientY: 10 });
      // The browser takes a moving finger for a scroll and cancels its pointer.
      fireEvent.pointerCancel(first);
      act(() => {
        jest.advanceTimersByTime(LONG_PRESS_MS + 10);
      });
      expect(screen.getByTestId('chosen')).toHaveTextContent(/^$/);
    } finally {
      jest.useRealTimers();
    }
  });

  it('chooses in select mode, and chooses the whole page', async () => {
    atWidth(PHONE);
    render(<Chooser onOpen={() => undefined} />);
    await userEvent.click(screen.getByTestId('list-select'));
    await userEvent.click(screen.getByTestId('card-2-check'));
    expect(screen.getByTestId('chosen')).toHaveTextContent(/^2$/);
    await userEvent.click(screen.getByTestId('list-select-all'));
    expect(screen.getByTestId('chosen')).toHaveTextContent('1,2');
    expect(screen.getByText('2 chosen')).toBeInTheDocument();
  });

  it('reads a row column by column when the page gives no card, with what a row opens to', () => {
    atWidth(PHONE);
    render(
      <ListView<Row>
        rowKey="id"
        columns={columns}
        dataSource={rows}
        pagination={false}
        expandable={{ rowExpandable: (r) => r.id === 2, expandedRowRender: (r) => <em>history of {r.name}</em> }}
        data-testid="rows"
      />,
    );
    const card = screen.getByTestId('card-1');
    expect(within(card).getByText('Name')).toBeInTheDocument();
    expect(within(card).getByText('สบู่ขมิ้น')).toBeInTheDocument();
    expect(within(card).getByText('Quantity')).toBeInTheDocument();
    expect(within(card).getByTestId('qty-1')).toHaveTextContent('3 pcs');
    expect(within(card).queryByText(/history of/)).not.toBeInTheDocument();
    expect(within(screen.getByTestId('card-2')).getByText('history of แชมพูมะกรูด')).toBeInTheDocument();
  });

  it('says the list is empty in its own words', () => {
    atWidth(PHONE);
    render(<ListView<Row> rowKey="id" columns={columns} dataSource={[]} pagination={false} locale={{ emptyText: 'No orders yet' }} data-testid="rows" />);
    expect(screen.getByTestId('rows')).toHaveTextContent('No orders yet');
  });

  it('leaves the keys typed into a field on a card to the field', async () => {
    atWidth(PHONE);
    const onOpen = jest.fn();
    const noteColumns = [{ title: 'Note', key: 'note', render: (_: unknown, r: Row) => <input aria-label={`note ${r.id}`} /> }];
    render(<ListView<Row> rowKey="id" columns={noteColumns} dataSource={rows} pagination={false} onOpen={onOpen} fields="stacked" data-testid="rows" />);
    const note = screen.getByLabelText('note 1');
    await userEvent.type(note, 'ห่อ ของขวัญ');
    expect(note).toHaveValue('ห่อ ของขวัญ');
    expect(onOpen).not.toHaveBeenCalled();
    screen.getByTestId('card-2').focus();
    await userEvent.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledWith(rows[1]);
  });
});
