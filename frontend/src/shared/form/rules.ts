// Client-side rules, the same as the server's (SPEC §5), as message keys of the `common`
// namespace so every screen shows them in the chosen language.
export const MSG = {
  required: 'validation.required',
  phoneDigits: 'validation.phone_digits',
  phoneInternational: 'validation.phone_international',
  email: 'validation.email',
  postcode: 'validation.postcode',
  country: 'validation.country',
  tooLong: 'validation.too_long',
} as const;

export function checkThaiPhone(v: string): string | null {
  const digits = v.replace(/[\s-]/g, '');
  if (!digits) return MSG.required;
  return /^\d{9,10}$/.test(digits) ? null : MSG.phoneDigits;
}

export function checkInternationalPhone(v: string): string | null {
  const cleaned = v.replace(/[\s\-()]/g, '');
  const digits = cleaned.startsWith('+') ? cleaned.slice(1) : cleaned;
  if (!digits) return MSG.required;
  return /^\d{6,15}$/.test(digits) ? null : MSG.phoneInternational;
}

export function checkEmail(v: string): string | null {
  const s = v.trim();
  if (!s) return null;
  const m = /^[^\s@]+@([^\s@]+)$/.exec(s);
  if (!m || s.length > 254) return MSG.email;
  const labels = m[1].split('.');
  const ok =
    labels.length >= 2 &&
    labels.every((l) => l.length > 0 && !l.startsWith('-') && !l.endsWith('-') && !/[!-,./:-@[-^`{-~]/.test(l.replace(/-/g, ''))) &&
    [...labels[labels.length - 1]].length >= 2;
  return ok ? null : MSG.email;
}

export function checkThaiPostcode(v: string): string | null {
  if (!v.trim()) return MSG.required;
  return /^\d{5}$/.test(v.trim()) ? null : MSG.postcode;
}

export function checkRequired(v: string | undefined | null, max = 500): string | null {
  if (!v || !v.trim()) return MSG.required;
  return [...v].length > max ? MSG.tooLong : null;
}

/** True for 13 digits whose last is the check digit: the first twelve weighted 13 down to 2,
 * the check is (11 − sum mod 11) mod 10. */
export function isThaiTaxId(v: string): boolean {
  if (!/^[0-9]{13}$/.test(v)) return false;
  const d = [...v].map(Number);
  const sum = d.slice(0, 12).reduce((acc, n, i) => acc + n * (13 - i), 0);
  return (11 - (sum % 11)) % 10 === d[12];
}
