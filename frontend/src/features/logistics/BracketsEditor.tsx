// The weight brackets of a channel as an editable table: up to each weight (kg) the parcel
// costs the row's price; rows are added below the last and removed one by one. The cells in
// the way are marked once the form has checked the table.
import { Fragment } from 'react';
import { Button, Form, Input, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { addBracket, bracketProblems, changeBracket, MAX_BRACKETS, removeBracket, toGrams, type BracketRow } from './logistics';

export function BracketsEditor({ value, onChange }: { value?: BracketRow[]; onChange?: (rows: BracketRow[]) => void }) {
  const { t } = useTranslation(['logistics', 'common']);
  const rows = value ?? [];
  const { status } = Form.Item.useStatus();
  const problems = status === 'error' ? bracketProblems(rows) : [];
  const wrong = (row: number, field: 'maxWeight' | 'price') => problems.some((p) => p.row === row && p.field === field);
  const set = (next: BracketRow[]) => onChange?.(next);

  return (
    <div data-testid="brackets">
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) 40px', gap: 8, alignItems: 'center', maxWidth: 520 }}>
        <Typography.Text type="secondary">{t('logistics:brackets.upTo')}</Typography.Text>
        <Typography.Text type="secondary">{t('logistics:brackets.price')}</Typography.Text>
        <span />
        {rows.map((r, i) => {
          const from = i === 0 ? 0 : toGrams(rows[i - 1].maxWeight);
          return (
            <Fragment key={i}>
              <Form.Item noStyle validateStatus={wrong(i, 'maxWeight') ? 'error' : ''}>
                <Input
                  value={r.maxWeight}
                  onChange={(e) => set(changeBracket(rows, i, { maxWeight: e.target.value }))}
                  inputMode="decimal"
                  suffix={t('logistics:brackets.kg')}
                  aria-label={t('logistics:brackets.rowWeight', { row: i + 1 })}
                  title={from !== null ? t('logistics:brackets.fromHint', { kg: from / 1000 }) : undefined}
                  data-testid={`bracket-${i}-weight`}
                />
              </Form.Item>
              <Form.Item noStyle validateStatus={wrong(i, 'price') ? 'error' : ''}>
                <Input
                  value={r.price}
                  onChange={(e) => set(changeBracket(rows, i, { price: e.target.value }))}
                  inputMode="decimal"
                  suffix={t('common:money.unit')}
                  aria-label={t('logistics:brackets.rowPrice', { row: i + 1 })}
                  data-testid={`bracket-${i}-price`}
                />
              </Form.Item>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                onClick={() => set(removeBracket(rows, i))}
                aria-label={t('logistics:brackets.remove', { row: i + 1 })}
                data-testid={`bracket-${i}-remove`}
              />
            </Fragment>
          );
        })}
      </div>
      <Space style={{ marginTop: 8 }} wrap>
        <Button icon={<PlusOutlined />} onClick={() => set(addBracket(rows))} disabled={rows.length >= MAX_BRACKETS} data-testid="bracket-add">
          {t('logistics:brackets.add')}
        </Button>
        <Typography.Text type="secondary">{t('logistics:brackets.hint', { max: MAX_BRACKETS })}</Typography.Text>
      </Space>
    </div>
  );
}

