// A bank's "logo": a small round badge in the bank's colour with its short name (KBANK), the
// way Thai banking apps tell banks apart at a glance. The full name is the badge's label.
import { Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A bank as the payments API lists it. */
export interface BadgeBank {
  code: string;
  short: string;
  nameTh: string;
  nameEn: string;
  color: string;
}

/** Black or white, whichever reads better on `hex` (#rrggbb). */
export function textOn(hex: string): '#000000' | '#ffffff' {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) return '#ffffff';
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.3 ? '#000000' : '#ffffff';
}

/** The bank's name in the chosen language. */
export function bankName(bank: Pick<BadgeBank, 'nameTh' | 'nameEn'>, lng: string): string {
  return lng === 'th' ? bank.nameTh : bank.nameEn;
}

export function BankBadge({ bank, size = 36 }: { bank: BadgeBank; size?: number }) {
  const { i18n } = useTranslation();
  const name = bankName(bank, i18n.language);
  // Longer short names get smaller letters, so that five (KBANK) still fit in the circle.
  const n = bank.short.length;
  const font = Math.max(6, Math.round(size * (n <= 3 ? 0.34 : n === 4 ? 0.27 : 0.22) * 10) / 10);
  return (
    <Tooltip title={name}>
      <span
        role="img"
        aria-label={name}
        data-testid={`bank-badge-${bank.code}`}
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          flex: 'none',
          width: size,
          height: size,
          borderRadius: '50%',
          background: bank.color,
          color: textOn(bank.color),
          fontSize: font,
          fontWeight: 700,
          letterSpacing: n > 4 ? -0.3 : 0,
          lineHeight: 1,
          boxShadow: 'inset 0 0 0 2px rgba(255,255,255,.35)',
          userSelect: 'none',
        }}
      >
        {bank.short}
      </span>
    </Tooltip>
  );
}

/** The badge with the bank's name beside it, for pickers and lists. */
export function BankLabel({ bank, size = 32 }: { bank: BadgeBank; size?: number }) {
  const { i18n } = useTranslation();
  return (
    <Space size={8} align="center">
      <BankBadge bank={bank} size={size} />
      <Typography.Text>{bankName(bank, i18n.language)}</Typography.Text>
    </Space>
  );
}
