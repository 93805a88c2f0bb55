import data from './data.json';
import {
  expandThaiAddressData,
  formatThaiAddress,
  isCompactThaiAddressData,
  loadThaiAddresses,
  searchThaiAddresses,
  type ThaiAddress,
} from './index';

let all: ThaiAddress[];

beforeAll(async () => {
  all = await loadThaiAddresses();
});

describe('thai-address dataset', () => {
  it('has the data.json shape and the loader expands it the same way', () => {
    expect(isCompactThaiAddressData(data)).toBe(true);
    expect(all).toEqual(expandThaiAddressData(data));
  });

  it('caches the expanded dataset', async () => {
    expect(await loadThaiAddresses()).toBe(all);
  });

  it('covers all 77 provinces and more than 7000 rows', () => {
    expect(new Set(all.map((a) => a.province)).size).toBe(77);
    expect(all.length).toBeGreaterThan(7000);
    expect(all.every((a) => /^\d{5}$/.test(a.postcode))).toBe(true);
  });
});

describe('searchThaiAddresses', () => {
  it('finds คลองเตยเหนือ by postcode 10110', () => {
    const hits = searchThaiAddresses(all, 'postcode', '10110');
    expect(hits).toContainEqual({
      subDistrict: 'คลองเตยเหนือ',
      district: 'วัฒนา',
      province: 'กรุงเทพมหานคร',
      postcode: '10110',
    });
    expect(hits.every((a) => a.postcode === '10110')).toBe(true);
  });

  it('matches postcodes by digit prefix only', () => {
    const hits = searchThaiAddresses(all, 'postcode', ' 101 ', 500);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((a) => a.postcode.startsWith('101'))).toBe(true);
    const notInside = searchThaiAddresses(all, 'postcode', '110', 500);
    expect(notInside.every((a) => a.postcode.startsWith('110'))).toBe(true);
    expect(notInside.some((a) => a.postcode === '10110')).toBe(false);
    expect(searchThaiAddresses(all, 'postcode', 'abc')).toEqual([]);
  });

  it('finds สุเทพ in เมืองเชียงใหม่, เชียงใหม่ 50200', () => {
    const hits = searchThaiAddresses(all, 'subDistrict', 'สุเทพ');
    expect(hits[0]).toEqual({
      subDistrict: 'สุเทพ',
      district: 'เมืองเชียงใหม่',
      province: 'เชียงใหม่',
      postcode: '50200',
    });
  });

  it('puts prefix matches before matches inside the name', () => {
    const hits = searchThaiAddresses(all, 'subDistrict', 'บาง', 5000);
    const firstInside = hits.findIndex((a) => !a.subDistrict.startsWith('บาง'));
    expect(firstInside).toBeGreaterThan(0);
    expect(hits.slice(firstInside).every((a) => !a.subDistrict.startsWith('บาง'))).toBe(true);
    expect(hits.every((a) => a.subDistrict.includes('บาง'))).toBe(true);
  });

  it('returns only สงขลา entries for district หาดใหญ่', () => {
    const hits = searchThaiAddresses(all, 'district', 'หาดใหญ่');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((a) => a.district === 'หาดใหญ่' && a.province === 'สงขลา')).toBe(true);
  });

  it('returns [] for an empty or blank query', () => {
    expect(searchThaiAddresses(all, 'province', '')).toEqual([]);
    expect(searchThaiAddresses(all, 'subDistrict', '   ')).toEqual([]);
    expect(searchThaiAddresses(all, 'postcode', '')).toEqual([]);
  });

  it('respects the limit and returns no duplicates', () => {
    expect(searchThaiAddresses(all, 'province', 'กรุงเทพ', 5)).toHaveLength(5);
    expect(searchThaiAddresses(all, 'province', 'กรุงเทพ')).toHaveLength(20);
    expect(searchThaiAddresses(all, 'province', 'กรุงเทพ', 0)).toEqual([]);
    const many = searchThaiAddresses(all, 'province', 'กรุงเทพ', 10000);
    expect(new Set(many.map(formatThaiAddress)).size).toBe(many.length);
  });
});

describe('formatThaiAddress', () => {
  it('joins the four fields', () => {
    expect(
      formatThaiAddress({
        subDistrict: 'คลองเตยเหนือ',
        district: 'วัฒนา',
        province: 'กรุงเทพมหานคร',
        postcode: '10110',
      }),
    ).toBe('คลองเตยเหนือ » วัฒนา » กรุงเทพมหานคร » 10110');
  });
});
