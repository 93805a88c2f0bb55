import { arrange, moved, NO_PREFS, ordered, readPrefs, toggled } from './columns';

const keys = ['orderNo', 'createdAt', 'receiver', 'total', 'warehouse'];
const cols = keys.map((key) => ({ key }));

describe('a person\'s columns', () => {
  it('are the page\'s when none was chosen', () => {
    expect(arrange(cols, NO_PREFS).map((c) => c.key)).toEqual(keys);
  });

  it('move one place at a time and stop at the ends', () => {
    let p = moved(keys, NO_PREFS, 'total', -1);
    expect(ordered(keys, p)).toEqual(['orderNo', 'createdAt', 'total', 'receiver', 'warehouse']);
    p = moved(keys, p, 'orderNo', -1);
    expect(ordered(keys, p)).toEqual(['orderNo', 'createdAt', 'total', 'receiver', 'warehouse']);
    p = moved(keys, p, 'warehouse', 1);
    expect(ordered(keys, p)).toEqual(['orderNo', 'createdAt', 'total', 'receiver', 'warehouse']);
  });

  it('hide and show, never the last one', () => {
    let p = NO_PREFS;
    for (const k of keys) p = toggled(keys, p, k);
    expect(arrange(cols, p).map((c) => c.key)).toEqual(['warehouse']);
    p = toggled(keys, p, 'receiver');
    expect(arrange(cols, p).map((c) => c.key)).toEqual(['receiver', 'warehouse']);
  });

  it('place a column the page adds later after its neighbour, and forget one it drops', () => {
    const prefs = { order: ['total', 'orderNo', 'gone', 'receiver', 'createdAt', 'warehouse'], hidden: ['gone'] };
    const withShipping = ['orderNo', 'createdAt', 'receiver', 'total', 'shipping', 'warehouse'];
    expect(ordered(withShipping, prefs)).toEqual(['total', 'shipping', 'orderNo', 'receiver', 'createdAt', 'warehouse']);
  });

  it('are kept per person and list, and a broken record reads as none', () => {
    localStorage.setItem('bo.columns.7.orders', JSON.stringify({ order: ['total', 3], hidden: ['warehouse'] }));
    expect(readPrefs(7, 'orders')).toEqual({ order: ['total'], hidden: ['warehouse'] });
    expect(readPrefs(8, 'orders')).toEqual(NO_PREFS);
    localStorage.setItem('bo.columns.7.orders', '{not json');
    expect(readPrefs(7, 'orders')).toEqual(NO_PREFS);
  });
});
