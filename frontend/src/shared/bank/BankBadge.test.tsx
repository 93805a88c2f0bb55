import { render, screen } from '@testing-library/react';

import { BankBadge, BankLabel, bankName, textOn } from './BankBadge';

const KBANK = { code: '004', short: 'KBANK', nameTh: 'ธนาคารกสิกรไทย', nameEn: 'Kasikornbank', color: '#138f2d' };

describe('bank badge', () => {
  it('is a round badge in the bank\'s colour with its short name, named by its full name', () => {
    render(<BankBadge bank={KBANK} size={40} />);
    const badge = screen.getByTestId('bank-badge-004');
    expect(badge).toHaveTextContent('KBANK');
    expect(badge).toHaveAttribute('aria-label', 'Kasikornbank');
    expect(badge).toHaveStyle({ borderRadius: '50%', width: '40px', height: '40px', background: '#138f2d', color: '#ffffff' });
  });

  it('writes in black on light colours, and names the bank in the chosen language', () => {
    expect(textOn('#f57d23')).toBe('#000000');
    expect(textOn('#0a2d7a')).toBe('#ffffff');
    expect(textOn('nope')).toBe('#ffffff');
    expect(bankName(KBANK, 'th')).toBe('ธนาคารกสิกรไทย');
    expect(bankName(KBANK, 'en')).toBe('Kasikornbank');
    render(<BankLabel bank={KBANK} />);
    expect(screen.getByText('Kasikornbank')).toBeInTheDocument();
  });
});
