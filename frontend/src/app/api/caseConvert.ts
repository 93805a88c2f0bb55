// The wire (SPEC §7): outgoing body keys to snake_case (keys beginning with `_` kept),
// query keys to kebab-case, response keys to camelCase; posts form-encoded with bracket keys.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function snakeCase(key: string): string {
  if (key.startsWith('_')) return key;
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

export function camelCase(key: string): string {
  if (key.startsWith('_')) return key;
  return key.replace(/[_-]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function kebabCase(key: string): string {
  return snakeCase(key).replace(/_/g, '-');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Blob) && !(v instanceof Date);
}

/** Fields whose values are maps keyed by data (variant names), not by field names: their
 * keys travel untouched. */
const DATA_KEYED = new Set(['variant_option', 'variantOption']);

function mapKeys(value: unknown, fn: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, fn));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[fn(k)] = DATA_KEYED.has(k) ? v : mapKeys(v, fn);
    return out;
  }
  return value;
}

export function toSnakeKeys<T>(value: T): unknown {
  return mapKeys(value, snakeCase);
}

export function toCamelKeys<T = Json>(value: unknown): T {
  return mapKeys(value, camelCase) as T;
}

/** Query parameters with kebab-case keys; undefined and null are left out. */
export function toKebabQuery(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    parts.push(`${encodeURIComponent(kebabCase(k))}=${encodeURIComponent(String(v))}`);
  }
  return parts.join('&');
}

/** True when the value holds a data-keyed map: its keys (variant names such as "1สี") may
 * begin with a digit, which bracket-keyed forms read as a list index, so such a body goes
 * as JSON. */
export function hasDataKeyedMap(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasDataKeyedMap);
  if (isPlainObject(value)) return Object.entries(value).some(([k, v]) => (DATA_KEYED.has(k) && isPlainObject(v) && Object.keys(v).length > 0) || hasDataKeyedMap(v));
  return false;
}

/** Form encoding with bracket keys: `{items: [{skuId: 7}]}` → `items[0][sku_id]=7`. A form
 * cannot say null, so null and undefined values are left out. */
export function toFormBody(value: unknown): string {
  const pairs: string[] = [];
  const walk = (v: unknown, prefix: string) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${prefix}[${i}]`));
    } else if (isPlainObject(v)) {
      const keepKeys = DATA_KEYED.has(prefix.replace(/^.*\[|\]$/g, ''));
      for (const [k, inner] of Object.entries(v)) {
        const key = keepKeys ? k : snakeCase(k);
        walk(inner, prefix ? `${prefix}[${key}]` : key);
      }
    } else {
      pairs.push(`${encodeURIComponent(prefix)}=${encodeURIComponent(String(v))}`);
    }
  };
  walk(value, '');
  return pairs.join('&');
}
