import type { ListingBody } from '@/features/marketplaces/api';
import { filterOf, linkOf, partsProblem, pushState, reference, tabOf, variation } from './listing';

const listing = (over: Partial<ListingBody> = {}): ListingBody => ({
  id: 1,
  storeChannelId: 1,
  itemId: '1001',
  modelId: '501',
  name: 'เสื้อยืด',
  options: [
    { name: 'สี', value: 'แดง' },
    { name: 'ไซซ์', value: 'M' },
  ],
  sellerSku: 'TEE-R-M',
  price: '199.00',
  platformStock: 4,
  imageUrl: '',
  state: 'active',
  skuId: null,
  skuCode: '',
  skuName: '',
  parts: [],
  linkedBy: '',
  available: null,
  pushed: null,
  lastPushAt: '',
  lastAnswer: '',
  pushDue: false,
  ownRule: false,
  stockCheckedAt: '',
  stockDiffers: false,
  ...over,
});

describe('a listing row', () => {
  it('reads its variation and its reference', () => {
    expect(variation(listing())).toBe('สี: แดง · ไซซ์: M');
    expect(reference(listing())).toBe('1001:501');
    expect(reference(listing({ modelId: '' }))).toBe('1001');
  });

  it('says what it is linked to', () => {
    expect(linkOf(listing())).toEqual({ kind: 'none' });
    expect(linkOf(listing({ skuId: 7, skuCode: 'TEE', skuName: 'เสื้อยืด · แดง' }))).toEqual({ kind: 'sku', code: 'TEE', name: 'เสื้อยืด · แดง' });
    const parts = [{ skuId: 7, quantity: 2, costShare: '70.00', skuCode: 'CUP', skuName: 'แก้ว' }];
    expect(linkOf(listing({ parts }))).toEqual({ kind: 'bundle', parts: [{ code: 'CUP', name: 'แก้ว', quantity: 2 }] });
  });

  it('says how its stock stands', () => {
    expect(pushState(listing())).toBe('unlinked');
    expect(pushState(listing({ skuId: 7 }))).toBe('never');
    expect(pushState(listing({ skuId: 7, pushDue: true, pushed: 3 }))).toBe('due');
    expect(pushState(listing({ skuId: 7, pushed: 3 }))).toBe('pushed');
    expect(pushState(listing({ skuId: 7, pushed: 3, lastAnswer: 'item deleted' }))).toBe('refused');
    expect(pushState(listing({ skuId: 7, pushed: 3, lastAnswer: 'increase_only' }))).toBe('left');
  });

  it('filters by its tab, the queue first', () => {
    expect(filterOf('waiting')).toEqual({ linked: false, state: 'active' });
    expect(filterOf('linked')).toEqual({ linked: true });
    expect(filterOf('differs')).toEqual({ stockDiffers: true });
    expect(tabOf('differs')).toBe('differs');
    expect(filterOf('deleted')).toEqual({ state: 'deleted' });
    expect(filterOf('all')).toEqual({});
    expect(tabOf('linked')).toBe('linked');
    expect(tabOf('nonsense')).toBe('waiting');
    expect(tabOf(null)).toBe('waiting');
  });
});

describe('a bundle being written', () => {
  it('needs parts, each a SKU once, in whole units', () => {
    expect(partsProblem([])).toBe('products:listings.bundle.needParts');
    expect(partsProblem([{ quantity: 1, share: '' }])).toBe('products:listings.bundle.needSku');
    expect(partsProblem([{ skuId: 1, quantity: 1, share: '' }, { skuId: 1, quantity: 2, share: '' }])).toBe('products:listings.bundle.twice');
    expect(partsProblem([{ skuId: 1, quantity: 0, share: '' }])).toBe('products:listings.bundle.quantity');
    expect(partsProblem([{ skuId: 1, quantity: 1.5, share: '' }])).toBe('products:listings.bundle.quantity');
  });

  it('takes shares left out, or adding up to 100', () => {
    expect(partsProblem([{ skuId: 1, quantity: 2, share: '' }, { skuId: 2, quantity: 1, share: '' }])).toBeNull();
    expect(partsProblem([{ skuId: 1, quantity: 2, share: '70' }, { skuId: 2, quantity: 1, share: '30.00' }])).toBeNull();
    expect(partsProblem([{ skuId: 1, quantity: 2, share: '33.33' }, { skuId: 2, quantity: 1, share: '66.67' }])).toBeNull();
    expect(partsProblem([{ skuId: 1, quantity: 2, share: '70' }, { skuId: 2, quantity: 1, share: '20' }])).toBe('products:listings.bundle.sharesSum');
    expect(partsProblem([{ skuId: 1, quantity: 2, share: '70' }, { skuId: 2, quantity: 1, share: '' }])).toBe('products:listings.bundle.shares');
    expect(partsProblem([{ skuId: 1, quantity: 2, share: '7O' }])).toBe('products:listings.bundle.shares');
  });
});
