import dayjs from 'dayjs';

import type { GoodsReceiptBody } from '../api';
import {
  actionsOf,
  fieldPath,
  formatArrival,
  formatDate,
  inputOf,
  linePieces,
  lineStatus,
  piecesPerUnit,
  qcDefaults,
  satangText,
  tabOf,
  totalCostSatang,
  valuesOf,
  checkCost,
  checkWeight,
} from './receipts';

const line = (over: Partial<GoodsReceiptBody['items'][number]> = {}): GoodsReceiptBody['items'][number] => ({
  id: 1,
  skuId: 27,
  productId: 12,
  productName: 'หมอนอิงลายช้าง',
  skuCode: 'HM-021',
  barcode: '',
  option1: '',
  option2: '',
  name: '',
  dimension: { width: 0, length: 0, height: 0, weight: '0.000' },
  cost: '120.50',
  requestQty: 2,
  requestBaseQty: 24,
  receiveQty: 0,
  defectQty: 0,
  goodQty: 0,
  expiredAt: '2027-05-01',
  unit: { id: 3, name: 'ลัง', quantity: 12 },
  printLabel: true,
  status: '',
  ...over,
});

const receipt = (over: Partial<GoodsReceiptBody> = {}): GoodsReceiptBody => ({
  id: 1,
  code: 'GR2569-000001',
  type: 'product',
  state: 'draft',
  warehouseId: 1,
  warehouseName: 'คลังหลัก',
  orderId: 0,
  expectedReceivedAt: '2026-11-28T03:30:00Z',
  expectedReceivedDate: '2026-11-28',
  expectedReceivedTime: '10:30',
  note: 'ของล็อตใหม่',
  isPickUp: true,
  pickUpDetail: { address: '12 ถนนสีลม', tel: '0812345678', expectedPickedUpAt: '2026-11-27T02:00:00Z' },
  items: [line()],
  packagings: [{ name: 'ลัง', quantity: 2, dimension: { width: 40, length: 30, height: 20, weight: '5.000' } }],
  options: ['label_sku'],
  rejectReason: '',
  lineCount: 1,
  totalCost: '241.00',
  totalRequestQty: 24,
  createdBy: 1,
  createdByName: 'สมศรี ใจดี',
  printedBy: 0,
  checkedBy: 0,
  decidedBy: 0,
  decidedByName: '',
  decidedAt: null,
  createdAt: '2026-11-25T12:00:00Z',
  updatedAt: '2026-11-25T12:00:00Z',
  ...over,
});

describe('goods receipts', () => {
  it('put each state on its tab of the board (SPEC §4)', () => {
    expect(['draft', 'pending', 'received', 'approved', 'shelving', 'shelved', 'rejected'].map(tabOf)).toEqual([
      'draft',
      'pending',
      'pending',
      'approved',
      'approved',
      'approved',
      'rejected',
    ]);
  });

  it('allow each action in its states only', () => {
    expect(actionsOf('draft')).toEqual({ edit: true, delete: true, send: true, qc: false, startShelving: false, finishShelving: false });
    expect(actionsOf('pending').qc).toBe(true);
    expect(actionsOf('received').qc).toBe(true);
    expect(actionsOf('approved')).toEqual({ edit: false, delete: false, send: false, qc: false, startShelving: true, finishShelving: false });
    expect(actionsOf('shelving').finishShelving).toBe(true);
    expect(Object.values(actionsOf('rejected')).some(Boolean)).toBe(false);
    expect(Object.values(actionsOf('shelved')).some(Boolean)).toBe(false);
  });

  it('count a line in pieces and its cost in satang', () => {
    expect(piecesPerUnit({ quantity: 2, convertedQuantity: 24 })).toBe(24);
    expect(piecesPerUnit({ quantity: 12, convertedQuantity: 12 })).toBe(12);
    expect(linePieces(2, 12)).toBe(24);
    expect(linePieces(null, 12)).toBe(0);
    expect(totalCostSatang([{ cost: '120.50', requestQty: 2 }, { cost: '15', requestQty: 10 }, { cost: 'x', requestQty: 1 }, { cost: '', requestQty: 4 }])).toBe(39100);
    expect(satangText(39100)).toBe('391.00');
    expect(satangText(123456789)).toBe('1,234,567.89');
  });

  it('check costs and weights as the API reads them', () => {
    expect(checkCost('')).toBeNull();
    expect(checkCost('1,200.50')).toBeNull();
    expect(checkCost('1.234')).toBe('validation.money');
    expect(checkCost('20000000')).toBe('validation.money');
    expect(checkWeight('0.250')).toBeNull();
    expect(checkWeight('1.2345')).toBe('validation.weight');
  });

  it('write dates in the Buddhist era in Thai', () => {
    expect(formatDate('2027-05-01', 'th')).toBe('1 พ.ค. 2570');
    expect(formatDate('2027-05-01', 'en')).toBe('1 May 2027');
    expect(formatDate(null, 'th')).toBe('');
    expect(formatArrival('2026-11-28', '10:30', 'th')).toBe('28 พ.ย. 2569 10:30');
    expect(formatArrival('2026-11-28', '', 'en')).toBe('28 Nov 2026');
  });

  it('turn a saved draft into the form and back into the same draft', () => {
    const r = receipt();
    const v = valuesOf(r);
    expect(v.products?.[0]).toMatchObject({ skuId: 27, unitId: 3, cost: '120.50', requestQty: 2, printLabel: true });
    expect(v.expectedReceivedTime?.format('HH:mm')).toBe('10:30');
    const input = inputOf('product', v);
    expect(input).toMatchObject({
      type: 'product',
      warehouseId: 1,
      expectedReceivedDate: '2026-11-28',
      expectedReceivedTime: '10:30',
      note: 'ของล็อตใหม่',
      isPickUp: true,
      products: [{ skuId: 27, unitId: 3, cost: '120.50', requestQty: 2, expiredAt: '2027-05-01', printLabel: true }],
      packagings: [{ name: 'ลัง', quantity: 2, dimension: { width: 40, length: 30, height: 20, weight: '5.000' } }],
      options: ['label_sku'],
    });
    expect(input.pickUp?.tel).toBe('0812345678');
    expect(dayjs(input.pickUp?.expectedPickedUpAt).toISOString()).toBe('2026-11-27T02:00:00.000Z');
    // Pieces have no unit id; parcels carry a name and size, not a SKU.
    expect(inputOf('product', { products: [{ skuId: 5, unitId: 0, cost: '', requestQty: 3 }] }).products).toEqual([{ skuId: 5, cost: '0', requestQty: 3, printLabel: false }]);
    expect(inputOf('parcel', { products: [{ name: ' กล่อง ', cost: '10', requestQty: 1, dimension: { width: 10, weight: '' } }] }).products).toEqual([
      { name: 'กล่อง', cost: '10', requestQty: 1, dimension: { width: 10 } },
    ]);
    expect(inputOf('parcel', { isPickUp: false }).pickUp).toBeUndefined();
  });

  it('name the form field of a server error', () => {
    expect(fieldPath('products[1].request_qty')).toEqual(['products', 1, 'requestQty']);
    expect(fieldPath('products[1].requestQty')).toEqual(['products', 1, 'requestQty']);
    expect(fieldPath('lines[0].sku_id')).toEqual(['products', 0, 'skuId']);
    expect(fieldPath('pick_up.tel')).toEqual(['pickUp', 'tel']);
    expect(fieldPath('packagings[2].dimension.weight')).toEqual(['packagings', 2, 'dimension', 'weight']);
    expect(fieldPath('expected_received_date')).toEqual(['expectedReceivedDate']);
    expect(fieldPath('options[1]')).toEqual(['options']);
  });

  it('start QC at the pieces asked for, or at the counts saved', () => {
    expect(qcDefaults(receipt({ state: 'pending' }))).toEqual([{ id: 1, receiveQty: 24, defectQty: 0 }]);
    expect(qcDefaults(receipt({ state: 'received', items: [line({ receiveQty: 20, defectQty: 2 })] }))).toEqual([{ id: 1, receiveQty: 20, defectQty: 2 }]);
    expect([0, 10, 24, 30].map((n) => lineStatus(24, n))).toEqual(['no_product', 'incomplete', 'complete', 'excess_product']);
  });
});
