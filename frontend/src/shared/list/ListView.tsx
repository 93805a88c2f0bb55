// A list that is a table on a desktop and cards on a phone (SPEC §2: the mobile layout),
// from one set of props: the page gives its table's columns and a card for a row. Choosing
// rows for a bulk action works on cards too, by a long press or the select mode.
import { useRef, useState, type Key, type ReactNode } from 'react';
import { Button, Checkbox, Spin, Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '@/app/layouts/useDevice';
import './styles';

/** How long a finger rests on a card before it counts as a long press. */
export const LONG_PRESS_MS = 500;

export type ListViewProps<T extends object> = TableProps<T> & {
  /** A row as a card on a phone. */
  card: (row: T) => ReactNode;
  /** A tap on a card (when not choosing rows). */
  onOpen?: (row: T) => void;
  /** The test id of a row's card (default `card-{key}`). */
  cardTestId?: (row: T) => string;
  'data-testid'?: string;
};

function keyOf<T extends object>(row: T, rowKey: TableProps<T>['rowKey'], index: number): Key {
  if (typeof rowKey === 'function') return rowKey(row, index);
  const field = (rowKey ?? 'key') as keyof T;
  return row[field] as unknown as Key;
}

export function ListView<T extends object>(props: ListViewProps<T>) {
  const mobile = useIsMobile();
  if (mobile) return <Cards {...props} />;
  const { card: _card, onOpen: _onOpen, cardTestId: _cardTestId, ...table } = props;
  return <Table<T> {...table} />;
}

function Cards<T extends object>({ card, onOpen, cardTestId, rowKey, rowSelection, dataSource, loading, locale, ...rest }: ListViewProps<T>) {
  const { t } = useTranslation('common');
  const rows = [...(dataSource ?? [])];
  const keys = rows.map((r, i) => keyOf(r, rowKey, i));
  const selected = rowSelection?.selectedRowKeys ?? [];
  const [selectMode, setSelectMode] = useState(false);
  const selecting = Boolean(rowSelection) && (selectMode || selected.length > 0);
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const pressed = useRef(false);

  const choose = (next: Key[]) => {
    const picked = rows.filter((_, i) => next.includes(keys[i]));
    rowSelection?.onChange?.(next, picked, { type: 'multiple' });
  };
  const toggle = (key: Key) => choose(selected.includes(key) ? selected.filter((k) => k !== key) : [...selected, key]);
  const endPress = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  const empty = typeof locale?.emptyText === 'function' ? locale.emptyText() : locale?.emptyText;
  const spinning = typeof loading === 'object' ? Boolean(loading.spinning) : Boolean(loading);

  return (
    <Spin spinning={spinning}>
      {rowSelection ? (
        <div className="bo-cards-bar">
          <span className="bo-card-sub">{selecting ? t('list.chosen', { count: selected.length }) : t('list.holdToChoose')}</span>
          {selecting ? (
            <span>
              <Button size="small" type="link" onClick={() => choose(keys)} data-testid="list-select-all">
                {t('list.chooseAll')}
              </Button>
              <Button
                size="small"
                onClick={() => {
                  setSelectMode(false);
                  choose([]);
                }}
                data-testid="list-select-done"
              >
                {t('list.doneChoosing')}
              </Button>
            </span>
          ) : (
            <Button size="small" onClick={() => setSelectMode(true)} data-testid="list-select">
              {t('list.choose')}
            </Button>
          )}
        </div>
      ) : null}
      <div className="bo-cards" data-testid={rest['data-testid']} data-view="cards" role="list">
        {rows.length === 0 && !spinning ? <div className="bo-cards-empty">{empty ?? t('list.empty')}</div> : null}
        {rows.map((row, i) => {
          const key = keys[i];
          const isChosen = selected.includes(key);
          return (
            <div
              key={String(key)}
              className="bo-list-card"
              role="listitem"
              tabIndex={0}
              aria-selected={selecting ? isChosen : undefined}
              data-testid={cardTestId ? cardTestId(row) : `card-${String(key)}`}
              onPointerDown={(e) => {
                if (!rowSelection) return;
                pressed.current = false;
                endPress();
                press.current = {
                  x: e.clientX,
                  y: e.clientY,
                  timer: setTimeout(() => {
                    pressed.current = true;
                    press.current = null;
                    setSelectMode(true);
                    if (!selected.includes(key)) choose([...selected, key]);
                  }, LONG_PRESS_MS),
                };
              }}
              onPointerMove={(e) => {
                const p = press.current;
                if (p && Math.abs(e.clientX - p.x) + Math.abs(e.clientY - p.y) > 10) endPress();
              }}
              onPointerUp={endPress}
              onPointerCancel={endPress}
              onPointerLeave={endPress}
              onContextMenu={(e) => {
                if (rowSelection) e.preventDefault();
              }}
              onClick={() => {
                if (pressed.current) {
                  pressed.current = false;
                  return;
                }
                if (selecting) toggle(key);
                else onOpen?.(row);
              }}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                if (selecting) toggle(key);
                else onOpen?.(row);
              }}
            >
              {selecting ? (
                <Checkbox
                  checked={isChosen}
                  onClick={(e) => e.stopPropagation()}
                  onChange={() => toggle(key)}
                  aria-label={t('list.choose')}
                  data-testid={`${cardTestId ? cardTestId(row) : `card-${String(key)}`}-check`}
                />
              ) : null}
              <div className="bo-list-card-body">{card(row)}</div>
            </div>
          );
        })}
      </div>
    </Spin>
  );
}
