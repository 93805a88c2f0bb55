import { baht, checkFooterText, lineAmount, SAMPLE_LINES, total } from './receipt';

test('the sample sale adds up in satang', () => {
  expect(lineAmount(SAMPLE_LINES[0])).toBe(39_800);
  expect(total(SAMPLE_LINES)).toBe(128_800);
  expect(total([])).toBe(0);
});

test('money is written with two decimals and separators', () => {
  expect(baht(128_800)).toBe('1,288.00');
  expect(baht(5)).toBe('0.05');
  expect(baht(123_456_789)).toBe('1,234,567.89');
  expect(baht(-1_050)).toBe('-10.50');
});

test('the footer text is bounded like the server bounds it', () => {
  expect(checkFooterText('ขอบคุณที่อุดหนุน\nแล้วพบกันใหม่')).toBeNull();
  expect(checkFooterText(undefined)).toBeNull();
  expect(checkFooterText('ก'.repeat(501))).toBe('validation.too_long');
  expect(checkFooterText('a\n'.repeat(11))).toBe('validation.footer_lines');
  expect(checkFooterText('a\n'.repeat(10))).toBeNull();
});
