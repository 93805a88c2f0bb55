// A list that is a table on a desktop and cards on a phone (SPEC §2: the mobile layout),
// from one set of props: the page gives its table's columns and a card for a row. Choosing
// rows for a bulk action works on cards too, by a long press or the select mode.
import { isValidElement, useRef, useState, type Key, type ReactNode } from 'react';
import { Button, Checkbox, Spin, Table, type TableColumnType, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '@/app/layouts/useDevice';
import './styles';

/** How long a finger rests on a card before it counts as a long press. */
export const LONG_PRESS_MS = 500;

export type ListViewProps<T extends object> = TableProps<T> & {
  /** A row as a card on a phone (default: each column's title and value, one per line). */
  card?: (row: T) => ReactNode;
  /** A tap on a card (when not choosing rows). */
  onOpen?: (row: T) => void;
  /** The default card's fields: title beside value (`inline`), or above it (`stacked`, for
   * rows of inputs). */
  fields?: 'inline' | 'stacked';
  /** The test id of a row's card (default `card-{key}`). */
  cardTestId?: (row: T) => string;
  'data-testid'?: string;
};

function keyOf<T extends object>(row: T, rowKey: TableProps<T>['rowKey'], index: number): Key {
  if (typeof rowKey === 'function') return rowKey(row, index);
  const field = (rowKey ?? 'key') as keyof T;
  return row[field] as unknown as Key;
}

/** A row read column by column: each column's title beside what its cell shows. */
export function FieldsCard<T extends object>({ row, index, columns, stacked = false }: { row: T; index: number; columns: TableProps<T>['columns']; stacked?: boolean }) {
  const cols = (columns ?? []) as TableColumnType<T>[];
  return (
    <div className={stacked ? 'bo-card-fields bo-card-fields-stacked' : 'bo-card-fields'}>
      {cols.map((c, i) => {
        const path = c.dataIndex;
        const value: unknown =
          path === undefined ? undefined : (Array.isArray(path) ? path : [path]).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k as string], row);
        let shown: unknown = c.render ? c.render(value, row, index) : value;
        // A cell may answer its content with the cell's own properties.
        if (shown && typeof shown === 'object' && !isValidElement(shown) && 'children' in shown) shown = (shown as { children: unknown }).children;
        const title = typeof c.title === 'function' ? null : c.title;
        return (
          <div key={String(c.key ?? (typeof path === 'string' ? path : i))} className="bo-card-field">
            {title ? <span className="bo-card-label">{title}</span> : null}
            <span className="bo-card-value">{shown as ReactNode}</span>
          </div>
        );
      })}
    </div>
  );
}

export function ListView<T extends object>(props: ListViewProps<T>) {
  const mobile = useIsMobile();
  if (mobile) return <Cards {...props} />;
  const { card: _card, onOpen: _onOpen, cardTestId: _cardTestId, fields: _fields, ...table } = props;
  return <Table<T> {...table} />;
}

function Cards<T extends object>({ card, onOpen, cardTestId, fields, rowKey, rowSelection, dataSource, loading, locale, columns, expandable, ...rest }: ListViewProps<T>) {
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
              style={onOpen || rowSelection ? undefined : { cursor: 'default' }}
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
              onClick={(e) => {
                // A field, button or link on the card does its own work.
                const own = (e.target as HTMLElement).closest('input, textarea, button, a, label, .ant-select, .ant-picker, .ant-input-number');
                if (own && e.currentTarget.contains(own)) return;
                if (pressed.current) {
                  pressed.current = false;
                  return;
                }
                if (selecting) toggle(key);
                else onOpen?.(row);
              }}
              onKeyDown={(e) => {
                // Keys typed into a field on the card are the field's.
                if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
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
              <div className="bo-list-card-body">
                {card ? card(row) : <FieldsCard row={row} index={i} columns={columns} stacked={fields === 'stacked'} />}
                {/* What a desktop row shows when opened, shown on its card at once. */}
                {expandable?.expandedRowRender && (expandable.rowExpandable?.(row) ?? true) ? (
                  <div className="bo-card-more">{expandable.expandedRowRender(row, i, 0, true)}</div>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
    </Spin>
  );
}
