// Photo rules as the server applies them (SPEC §5): .jpg, .jpeg or .png, 5 MB each, at most
// 200 in one upload; a product holds at most 9 photos.
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_MAX_PER_PRODUCT = 9;
const TYPES = ['image/jpeg', 'image/png'];
const EXTENSIONS = /\.(jpe?g|png)$/i;

/** A message key for the first file that breaks a rule, or null. */
export function checkPhotos(files: { name: string; size: number; type: string }[], existing: number): string | null {
  if (files.length > 200 || existing + files.length > PHOTO_MAX_PER_PRODUCT) return 'products:photos.errors.too_many';
  for (const f of files) {
    if (!EXTENSIONS.test(f.name) || (f.type && !TYPES.includes(f.type))) return 'products:photos.errors.type';
    if (f.size > PHOTO_MAX_BYTES) return 'products:photos.errors.type';
  }
  return null;
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
