// Photo rules as the server applies them (SPEC §5): .jpg, .jpeg or .png, 5 MB each, at most
// 200 in one upload; the counts per product come from the server (GET /products/photo-rules)
// because they are configurable there.
export interface PhotoRules {
  minPerProduct: number;
  maxPerProduct: number;
  maxBytes: number;
  maxPerUpload: number;
}

/** The server's defaults, used until its answer arrives. */
export const DEFAULT_PHOTO_RULES: PhotoRules = { minPerProduct: 1, maxPerProduct: 9, maxBytes: 5 * 1024 * 1024, maxPerUpload: 200 };

const TYPES = ['image/jpeg', 'image/png'];
const EXTENSIONS = /\.(jpe?g|png)$/i;

/** A message key for the first file that breaks a rule, or null. */
export function checkPhotos(files: { name: string; size: number; type: string }[], existing: number, rules: PhotoRules = DEFAULT_PHOTO_RULES): string | null {
  if (files.length > rules.maxPerUpload || existing + files.length > rules.maxPerProduct) return 'products:photos.errors.too_many';
  for (const f of files) {
    if (!EXTENSIONS.test(f.name) || (f.type && !TYPES.includes(f.type))) return 'products:photos.errors.type';
    if (f.size > rules.maxBytes) return 'products:photos.errors.type';
  }
  return null;
}

/** Whether one of `count` photos may be deleted: a product keeps at least the minimum. */
export function canDeletePhoto(count: number, rules: PhotoRules = DEFAULT_PHOTO_RULES): boolean {
  return count > rules.minPerProduct;
}

/** The ids after moving `from` to the place of `to`. */
export function moved(ids: number[], from: number, to: number): number[] {
  const out = ids.filter((id) => id !== from);
  const at = out.indexOf(to);
  if (at < 0 || from === to) return ids;
  const before = ids.indexOf(from) > ids.indexOf(to);
  out.splice(before ? at : at + 1, 0, from);
  return out;
}
