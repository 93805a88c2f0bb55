import '@/shared/i18n/i18n';
import { amount, change, dayParam, periodLabel, periodOf, pickerOf, pointLabel, satang } from './dashboard';

describe('the overview dashboard', () => {
  it('reads the period from the address, monthly by default', () => {
    expect(periodOf('quarterly')).toBe('quarterly');
    expect(periodOf('weekly')).toBe('monthly');
    expect(periodOf(null)).toBe('monthly');
    expect(pickerOf('daily')).toBe('date');
    expect(pickerOf('yearly')).toBe('year');
  });

  it('keeps only real days', () => {
    expect(dayParam('2026-11-27')).toBe('2026-11-27');
    expect(dayParam('2026-02-30')).toBeNull();
    expect(dayParam('27/11/2026')).toBeNull();
    expect(dayParam(undefined)).toBeNull();
  });

  it('compares with the period before, or not at all without one', () => {
    expect(change(150, 100)).toBe(50);
    expect(change(50, 200)).toBe(-75);
    expect(change(1, 3)).toBe(-66.7);
    expect(change(10, 0)).toBeNull();
    expect(change(-50, -100)).toBe(50);
    expect(change(93.75, 100)).toBe(-6.3);
    expect(change(106.25, 100)).toBe(6.3);
    expect(amount('1345.50')).toBe(1345.5);
    expect(amount('x')).toBe(0);
    expect(satang('1345.50')).toBe(134550);
    expect(satang('10.05')).toBe(1005);
    expect(satang(undefined)).toBe(0);
  });

  it('names periods in the Buddhist era in Thai', () => {
    expect(periodLabel('monthly', '2026-11-01', 'th')).toBe('พฤศจิกายน 2569');
    expect(periodLabel('monthly', '2026-11-01', 'en')).toBe('November 2026');
    expect(periodLabel('quarterly', '2026-04-01', 'th')).toBe('ไตรมาส 2 2569');
    expect(periodLabel('quarterly', '2026-10-01', 'en')).toBe('Q4 2026');
    expect(periodLabel('yearly', '2026-01-01', 'th')).toBe('2569');
    expect(periodLabel('daily', '2026-11-27', 'en')).toBe('27 November 2026');
    expect(pointLabel('2026-03-01', 'month', 'en')).toBe('Mar');
    expect(pointLabel('2026-03-05', 'day', 'en')).toBe('5 Mar');
  });
});

describe('the charts\' axes', () => {
  it('write amounts short', async () => {
    const { shortAmount } = await import('./SalesCharts');
    expect([0, 850, 1000, 2500, 12_345, 1_250_000, -3400].map(shortAmount)).toEqual(['0', '850', '1k', '2.5k', '12k', '1.3M', '-3.4k']);
  });
});
