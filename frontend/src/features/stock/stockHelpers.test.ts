import dayjs from 'dayjs';

import { daysUntil, expiryDaysOf, expiryLevel, formatDate } from './lots';
import { newKey, SubmissionKeys } from './moves/keys';
import { movesPath, tabOfPath } from './moves/tabs';
import { sentLines, shortSkus } from './moves/TransferFormModal';

describe('lot expiry', () => {
  const today = dayjs('2026-11-25T10:00:00');

  it('counts whole days to the expiry date', () => {
    expect(daysUntil('2026-11-25', today)).toBe(0);
    expect(daysUntil('2026-12-01', today)).toBe(6);
    expect(daysUntil('2026-11-20', today)).toBe(-5);
    expect(daysUntil(null, today)).toBeNull();
  });

  it('calls a lot expired, expiring within the days asked, or neither', () => {
    expect(expiryLevel('2026-11-24', 30, today)).toBe('expired');
    expect(expiryLevel('2026-11-25', 30, today)).toBe('soon');
    expect(expiryLevel('2026-12-25', 30, today)).toBe('soon');
    expect(expiryLevel('2026-12-26', 30, today)).toBeNull();
    expect(expiryLevel(undefined, 30, today)).toBeNull();
  });

  it('reads the days of the URL, 30 when missing or out of range', () => {
    expect(expiryDaysOf('7')).toBe(7);
    expect(expiryDaysOf(null)).toBe(30);
    expect(expiryDaysOf('0')).toBe(30);
    expect(expiryDaysOf('abc')).toBe(30);
    expect(expiryDaysOf('99999')).toBe(30);
  });

  it('writes dates in the Buddhist era in Thai', () => {
    expect(formatDate('2026-12-15', 'th')).toBe('15 ธ.ค. 2569');
    expect(formatDate('2026-12-15', 'en')).toBe('15 Dec 2026');
    expect(formatDate(null, 'th')).toBe('');
  });
});

describe('idempotency keys', () => {
  it('makes UUIDs', () => {
    expect(newKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newKey()).not.toBe(newKey());
  });

  it('keeps a key for the same body after no answer, and takes a new one after an answer', () => {
    const keys = new SubmissionKeys();
    const first = keys.keyFor({ a: 1 });
    keys.settled({ status: 'FETCH_ERROR' });
    expect(keys.keyFor({ a: 1 })).toBe(first);
    keys.settled({ status: 503 });
    expect(keys.keyFor({ a: 1 })).toBe(first);
    expect(keys.keyFor({ a: 2 })).not.toBe(first);
    const refused = keys.keyFor({ a: 2 });
    keys.settled({ status: 409 });
    expect(keys.keyFor({ a: 2 })).not.toBe(refused);
    const sent = keys.keyFor({ a: 2 });
    keys.settled();
    expect(keys.keyFor({ a: 2 })).not.toBe(sent);
  });
});

describe('the moves tabs', () => {
  it('follow the path', () => {
    expect(tabOfPath('/1/stock-management-goods-adjust')).toBe('goods-adjust');
    expect(tabOfPath('/1/stock-management-warehouses/')).toBe('warehouses');
    expect(tabOfPath('/1/stock-management-transfer')).toBe('transfer');
    expect(tabOfPath('/1/elsewhere')).toBe('transfer');
    expect(movesPath('1', 'warehouses')).toBe('/1/stock-management-warehouses');
  });
});

describe('transfer lines', () => {
  it('are sent by SKU, and a want of stock names the SKUs of the lines it refuses', () => {
    const sent = sentLines([{ skuId: 8, quantity: 2 }, { skuId: 3, quantity: 30 }]);
    expect(sent).toEqual([{ skuId: 3, quantity: 30 }, { skuId: 8, quantity: 2 }]);
    const refusal = { status: 409, data: { error: { code: 'insufficient_stock', messageKey: '', message: '', fields: [{ field: 'lines[1].quantity', code: 'stock.insufficient' }] } } };
    expect(shortSkus(refusal, sent)).toEqual([8]);
    expect(shortSkus({ status: 409, data: { error: { code: 'warehouse_inactive', messageKey: '', message: '' } } }, sent)).toEqual([]);
  });
});
