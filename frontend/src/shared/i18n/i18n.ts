// i18next: Thai by default, English available; one namespace per feature, each loaded
// lazily from src/locales/<lang>/<ns>.json. The chosen language is remembered.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import dayjs from 'dayjs';
import buddhistEra from 'dayjs/plugin/buddhistEra';
import 'dayjs/locale/th';

export const LANGUAGES = ['th', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
const KEY = 'bo.lang';

dayjs.extend(buddhistEra);

export function storedLanguage(): Language {
  try {
    return localStorage.getItem(KEY) === 'en' ? 'en' : 'th';
  } catch {
    return 'th';
  }
}

export function initI18n(): typeof i18n {
  const lng = storedLanguage();
  dayjs.locale(lng);
  void i18n
    .use(resourcesToBackend((language: string, ns: string) => import(`../../locales/${language}/${ns}.json`)))
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: 'th',
      supportedLngs: [...LANGUAGES],
      ns: ['common', 'codes'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      showSupportNotice: false,
    });
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  return i18n;
}

export function setLanguage(lng: Language): void {
  try {
    localStorage.setItem(KEY, lng);
  } catch {
    /* not remembered */
  }
  dayjs.locale(lng);
  document.documentElement.lang = lng;
  void i18n.changeLanguage(lng);
}

/** A date and time as shop staff read it: Buddhist era in Thai. */
export function formatDateTime(iso: string | null | undefined, lng: string): string {
  if (!iso) return '';
  const d = dayjs(iso);
  if (!d.isValid()) return '';
  return lng === 'th' ? d.locale('th').format('D MMM BBBB HH:mm') : d.locale('en').format('D MMM YYYY HH:mm');
}

/** A day as shop staff read it: Buddhist era in Thai. */
export function formatDate(iso: string | null | undefined, lng: string): string {
  if (!iso) return '';
  const d = dayjs(iso);
  if (!d.isValid()) return '';
  return lng === 'th' ? d.locale('th').format('D MMM BBBB') : d.locale('en').format('D MMM YYYY');
}

/** Today in Thailand (UTC+7 all year), as a day: the shop's day, which the API's date
 * filters read (`date-from`, `date-to`), whatever time zone the device is set to. */
export function thailandToday(now: number = Date.now()): dayjs.Dayjs {
  return dayjs(new Date(now + 7 * 3600 * 1000).toISOString().slice(0, 10));
}

export default i18n;
