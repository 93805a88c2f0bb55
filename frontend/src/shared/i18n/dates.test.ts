import dayjs from 'dayjs';
import buddhistEra from 'dayjs/plugin/buddhistEra';
import 'dayjs/locale/th';

import { formatDateTime } from './i18n';

dayjs.extend(buddhistEra);

describe('dates', () => {
  it('shows the Buddhist era in Thai and the common era in English', () => {
    const iso = '2026-11-22T06:39:31.140Z';
    const local = dayjs(iso);
    expect(formatDateTime(iso, 'th')).toContain(String(local.year() + 543));
    expect(formatDateTime(iso, 'en')).toContain(String(local.year()));
    expect(formatDateTime('', 'th')).toBe('');
  });
});
