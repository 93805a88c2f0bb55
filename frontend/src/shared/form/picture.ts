// The rules every picture upload has on the server (SPEC §5): .jpg, .jpeg or .png, 5 MB at
// most. The server also checks the content and the dimensions; these catch the common
// mistakes before anything is sent.
export const PICTURE_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';
export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;

const TYPES = ['image/jpeg', 'image/png'];
const EXTENSIONS = /\.(jpe?g|png)$/i;

/** A `common` message key for a picture that breaks a rule, or null. */
export function checkPicture(f: { name: string; size: number; type: string }): string | null {
  if (!EXTENSIONS.test(f.name) || (f.type && !TYPES.includes(f.type))) return 'photo_type';
  if (f.size > PICTURE_MAX_BYTES) return 'photo_too_large';
  return null;
}
