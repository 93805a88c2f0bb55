import { checkEmail, checkInternationalPhone, checkThaiPhone, checkThaiPostcode, MSG } from './rules';

describe('client rules match the server', () => {
  it('phones have 9 or 10 digits', () => {
    expect(checkThaiPhone('081-234-5678')).toBeNull();
    expect(checkThaiPhone('02 123 4567')).toBeNull();
    expect(checkThaiPhone('08123456')).toBe(MSG.phoneDigits);
    expect(checkThaiPhone('08123456789')).toBe(MSG.phoneDigits);
    expect(checkThaiPhone('')).toBe(MSG.required);
    expect(checkInternationalPhone('+44 20 7946 0958')).toBeNull();
    expect(checkInternationalPhone('12345')).toBe(MSG.phoneInternational);
  });

  it('emails', () => {
    for (const ok of ['', 'a@b.co', 'somchai.j@example.co.th', 'x+y@ตัวอย่าง.ไทย']) expect(checkEmail(ok)).toBeNull();
    for (const bad of ['a', 'a@', '@b.co', 'a@b', 'a b@c.co', 'a@b..co', 'a@@b.co', 'a@b.c']) expect(checkEmail(bad)).toBe(MSG.email);
  });

  it('postcodes', () => {
    expect(checkThaiPostcode('10110')).toBeNull();
    expect(checkThaiPostcode('1011')).toBe(MSG.postcode);
    expect(checkThaiPostcode('')).toBe(MSG.required);
  });
});
