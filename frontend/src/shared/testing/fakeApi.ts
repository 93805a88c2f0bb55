// Fake answers of the gateway for screen tests: `global.fetch` replaced, every call kept.
import type { ErrorCode } from '@/shared/errorCodes.gen';

export type Reply = { status: number; body?: unknown };
/** A call as sent; a multipart body (a file upload) is kept as `multipart/form-data`: jsdom's
 * files cannot be read back through Node's Request. */
export type Sent = { url: string; method: string; body: string };

const MULTIPART = 'multipart/form-data';

async function bodyOf(req: Request): Promise<string> {
  return (req.headers.get('content-type') ?? '').startsWith(MULTIPART) ? MULTIPART : req.text();
}

function respond(r: Reply): Response {
  return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status, headers: { 'content-type': 'application/json' } });
}

/** Answers each call in turn (200 `{}` once the list is spent) and remembers what was sent. */
export function serveInTurn(...replies: Reply[]): Sent[] {
  const sent: Sent[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    sent.push({ url: req.url, method: req.method, body: await bodyOf(req) });
    return respond(replies.shift() ?? { status: 200, body: {} });
  }) as jest.Mock;
  return sent;
}

/** Answers by method and path (without `/api`), whatever the order of the calls; `url` of
 * what was sent is the path and query. */
export function serveBy(answer: (method: string, path: string) => Reply): Sent[] {
  const sent: Sent[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    sent.push({ url: url.pathname + url.search, method: req.method, body: await bodyOf(req) });
    return respond(answer(req.method, url.pathname.replace(/^\/api/, '')));
  }) as jest.Mock;
  return sent;
}

/** The gateway's refusal (`{error: {...}}`) with `status`, a code it answers with and the
 * broken rules. */
export function refusal(status: number, code: ErrorCode, fields?: { field: string; code: string }[]): Reply {
  return { status, body: { error: { code, message_key: `error.${code}`, message: 'x', ...(fields ? { fields } : {}) } } };
}
