// The device tokens this browser was given when its accounts signed in (kept in
// localStorage, one per e-mail, a few at most): shown again at the next sign-in of that
// account, they let it skip the line that strangers' password guesses wait in.
const KEY = 'bo.devices';
const MAX = 5;

function read(): Record<string, string> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return v && typeof v === 'object' ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The device token of `email` on this browser, if it signed in here before. */
export function deviceFor(email: string): string | undefined {
  return read()[email.trim().toLowerCase()];
}

/** Keeps the device token `email` was just given (the newest few accounts only). */
export function rememberDevice(email: string, token: string) {
  const all = read();
  delete all[email.trim().toLowerCase()];
  const kept = Object.entries(all).slice(-(MAX - 1));
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries([...kept, [email.trim().toLowerCase(), token]])));
}
