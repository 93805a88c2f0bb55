import dayjs from 'dayjs';
import buddhistEra from 'dayjs/plugin/buddhistEra';
import 'dayjs/locale/th';

import { formatDateTime, thailandToday } from './i18n';

dayjs.extend(buddhistEra);

describe('dates', () => {
  it('shows the Buddhist era in Thai and the common era in English', () => {
    const iso = '2026-11-22T06:39:31.140Z';
    const local = dayjs(iso);
    expect(formatDateTime(iso, 'th')).toContain(String(local.year() + 543));
    expect(formatDateTime(iso, 'en')).toContain(String(local.year()));
    expect(formatDateTime('', 'th')).toBe('');
  });

  it('takes today as Thailand\'s day, whatever the device\'s time zone', () => {
    // 18:49 UTC on the 26th is 01:49 on the 27th in Bangkok.
    expect(thailandToday(Date.parse('2026-11-26T18:49:00Z')).format('YYYY-MM-DD')).toBe('2026-11-27');
    expect(thailandToday(Date.parse('2026-11-26T10:00:00Z')).format('YYYY-MM-DD')).toBe('2026-11-26');
    expect(thailandToday(Date.parse('2026-11-30T17:00:00Z')).startOf('month').format('YYYY-MM-DD')).toBe('2026-12-01');
  });
});
