// Date pickers that read Buddhist-era years in Thai (2569 for 2026), in the field and in the
// calendar's headers and year cells (dayjs' `BBBB`); Gregorian years in English.
import { DatePicker, type DatePickerProps } from 'antd';
import thTH from 'antd/locale/th_TH';
import type { Dayjs } from 'dayjs';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';

const TH_PICKER = thTH.DatePicker
  ? { ...thTH.DatePicker, lang: { ...thTH.DatePicker.lang, yearFormat: 'BBBB', cellYearFormat: 'BBBB' } }
  : undefined;

/** The picker's locale for a language: Buddhist-era years in Thai. */
export function eraLocale(lng: string) {
  return lng === 'th' ? TH_PICKER : undefined;
}

function useEra(withTime: boolean) {
  const { i18n } = useTranslation();
  const th = i18n.language === 'th';
  const format = th
    ? (d: Dayjs) => d.locale('th').format(withTime ? 'D MMM BBBB HH:mm' : 'D MMM BBBB')
    : withTime
      ? 'D MMM YYYY HH:mm'
      : 'D MMM YYYY';
  return { format, locale: th ? TH_PICKER : undefined };
}

/** antd's DatePicker; in Thai its field and calendar show Buddhist-era years. */
export function EraDatePicker(props: DatePickerProps) {
  const era = useEra(Boolean(props.showTime));
  return <DatePicker style={{ width: '100%' }} {...props} format={era.format} locale={era.locale} />;
}

type RangeProps = ComponentProps<typeof DatePicker.RangePicker>;

/** antd's RangePicker (a first and a last day), in Buddhist-era years in Thai. */
export function EraRangePicker(props: RangeProps) {
  const era = useEra(false);
  return <DatePicker.RangePicker {...props} format={era.format} locale={era.locale} />;
}
