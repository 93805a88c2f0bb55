// Variants on the wire carry a one-character ordering prefix ("1สี", "2ไซซ์"), on the
// variant names and on the keys of each SKU's variantOption map (SPEC §3). The app works
// with plain names: strip on load, add on save.

export interface VariantDraft {
  name: string;
  options: string[];
}

export interface SkuDraft {
  id?: number;
  code: string;
  price: string;
  cost: string;
  safetyStock: number;
  barcode: string;
  status: 'active' | 'inactive';
  options: string[];
}

export const stripPrefix = (s: string | null | undefined): string => (s ? s.slice(1) : '');
export const addPrefix = (i: number, name: string): string => `${i + 1}${name}`;

/** Every combination of the variants' options, in order. */
export function combinations(variants: VariantDraft[]): string[][] {
  const used = variants.filter((v) => v.name.trim() && v.options.length > 0);
  if (used.length === 0) return [[]];
  return used.reduce<string[][]>((acc, v) => acc.flatMap((prefix) => v.options.map((o) => [...prefix, o])), [[]]);
}

/** The SKU grid for these variants, keeping what was typed for combinations that remain. */
export function skuGrid(variants: VariantDraft[], current: SkuDraft[], productCode: string, price: string, cost: string): SkuDraft[] {
  return combinations(variants).map((options) => {
    const found = current.find((s) => s.options.join('\u0000') === options.join('\u0000'));
    if (found) return found;
    const suffix = options.length ? `-${options.join('-')}` : '';
    return { code: `${productCode}${suffix}`, price, cost, safetyStock: 0, barcode: '', status: 'active', options };
  });
}

/** The variantOption map as the API wants it. */
export function variantOption(variants: VariantDraft[], options: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  variants.forEach((v, i) => {
    if (v.name.trim() && options[i] !== undefined) out[addPrefix(i, v.name.trim())] = options[i];
  });
  return out;
}

/** A SKU's options in variant order, from the API's prefixed map. */
export function optionsOf(variants: VariantDraft[], map: Record<string, string> | undefined): string[] {
  return variants.map((v, i) => map?.[addPrefix(i, v.name)] ?? '');
}
