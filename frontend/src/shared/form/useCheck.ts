import { useTranslation } from 'react-i18next';

/** An antd form rule from one of `rules.ts`'s checks, with its message translated.
 * `optional` lets an empty value pass. */
export function useCheck() {
  const { t } = useTranslation('common');
  return (check: (v: string) => string | null, optional = false) => ({
    validator: (_: unknown, v: string | undefined) => {
      if (optional && !(v ?? '').trim()) return Promise.resolve();
      const code = check(v ?? '');
      return code ? Promise.reject(new Error(t(code))) : Promise.resolve();
    },
  });
}
