// One Idempotency-Key per submission: a repeat of the same body after a call that got no
// definite answer (no connection, a timeout, a server failure) carries the same key, so the
// gateway replays the first answer instead of acting twice; any other submission a new key.

/** A random UUID (version 4), also where `crypto.randomUUID` is missing (plain http). */
export function newKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const b = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(b);
  else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** True when an error is no definite answer of the server: the same submission may be sent
 * again under its key. */
export function undecided(e: unknown): boolean {
  const status = (e as { status?: unknown } | undefined)?.status;
  return typeof status !== 'number' || status >= 500;
}

/** Keys for the submissions of one form. */
export class SubmissionKeys {
  private last: { body: string; key: string } | null = null;

  /** The key for `body`: the last one when it is the same body again, else a new one. */
  keyFor(body: unknown): string {
    const text = JSON.stringify(body);
    if (this.last && this.last.body === text) return this.last.key;
    this.last = { body: text, key: newKey() };
    return this.last.key;
  }

  /** After an answer: a decided one (done or refused) ends the key's use. */
  settled(e?: unknown): void {
    if (e === undefined || !undecided(e)) this.last = null;
  }
}
