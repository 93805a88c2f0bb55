// The receipt preview's sample sale: lines in satang, the total computed here and nowhere
// else on the screen, and money written as Thai receipts write it.

export interface SampleLine {
  name: string;
  quantity: number;
  /** Unit price in satang. */
  price: number;
}

/** What the preview sells: the same two lines for everyone, so the owner judges the layout. */
export const SAMPLE_LINES: SampleLine[] = [
  { name: 'เสื้อยืดคอกลม สีขาว M', quantity: 2, price: 19_900 },
  { name: 'กางเกงยีนส์ทรงกระบอก', quantity: 1, price: 89_000 },
];

/** A line's amount in satang. */
export function lineAmount(l: SampleLine): number {
  return l.quantity * l.price;
}

/** The sale's total in satang. */
export function total(lines: SampleLine[]): number {
  return lines.reduce((sum, l) => sum + lineAmount(l), 0);
}

/** Satang as baht with two decimals and thousands separators: 128800 → "1,288.00". */
export function baht(satang: number): string {
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(satang));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** The longest footer text and its lines, as the server allows. */
export const FOOTER_TEXT_MAX = 500;
export const FOOTER_LINES_MAX = 10;

/** A `settings` message key for a footer text the server would refuse, or null. */
export function checkFooterText(v: string | undefined): string | null {
  const text = (v ?? '').replace(/\r\n/g, '\n').replace(/\n+$/, '');
  if ([...text].length > FOOTER_TEXT_MAX) return 'validation.too_long';
  if (text.split('\n').length > FOOTER_LINES_MAX) return 'validation.footer_lines';
  return null;
}
