// Fake answers of the gateway for screen tests: `global.fetch` replaced, every call kept.

export type Reply = { status: number; body?: unknown };
export type Sent = { url: string; method: string; body: string };

function respond(r: Reply): Response {
  return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status, headers: { 'content-type': 'application/json' } });
}

/** Answers each call in turn (200 `{}` once the list is spent) and remembers what was sent. */
export function serveInTurn(...replies: Reply[]): Sent[] {
  const sent: Sent[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    sent.push({ url: req.url, method: req.method, body: await req.text() });
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
    sent.push({ url: url.pathname + url.search, method: req.method, body: await req.text() });
    return respond(answer(req.method, url.pathname.replace(/^\/api/, '')));
  }) as jest.Mock;
  return sent;
}
