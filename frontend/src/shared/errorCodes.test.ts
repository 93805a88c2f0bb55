import fs from 'fs';
import path from 'path';

import { ERROR_CODES } from './errorCodes.gen';
import { isErrorCode, refusalKey } from './refusal';

const read = (lang: string) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'locales', lang, 'codes.json'), 'utf8')) as Record<string, string>;

describe('error codes', () => {
  it('has a Thai and an English message for every code the API answers with, and none for a code it lacks', () => {
    for (const lang of ['th', 'en']) {
      const messages = read(lang);
      const missing = ERROR_CODES.filter((c) => !messages[c]?.trim());
      expect({ lang, missing }).toEqual({ lang, missing: [] });
      const extra = Object.keys(messages).filter((c) => !isErrorCode(c));
      expect({ lang, extra }).toEqual({ lang, extra: [] });
    }
  });

  it('says a Thai message in Thai', () => {
    const th = read('th');
    const notThai = ERROR_CODES.filter((c) => !/[\u0E00-\u0E7F]/.test(th[c]));
    expect(notThai).toEqual([]);
  });

  it('prefers a feature\'s own wording, then the code\'s, and knows no other code', () => {
    expect(refusalKey('payment_channel_in_use', 'payments')).toBe('payments:errors.payment_channel_in_use');
    expect(refusalKey('order_not_found', 'payments')).toBe('codes:order_not_found');
    expect(refusalKey('order_not_found')).toBe('codes:order_not_found');
    expect(refusalKey('no_such_code', 'payments')).toBeNull();
    expect(refusalKey(undefined)).toBeNull();
  });
});
