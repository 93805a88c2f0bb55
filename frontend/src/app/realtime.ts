// The realtime socket (SPEC §6): one WebSocket per signed-in store, through the gateway at
// /api/realtime. Its first message carries the store token; once the server says AUTH, the
// app asks for the shops' stock sync status (PRODUCT_SYNC_STOCK_ALL) and then hears, unasked,
// each step of a push all, new orders and exports' progress. A socket that drops is opened
// again, waiting a little longer each time (1 s doubling to 30 s); one refused for its token
// (close 4401) asks the app to renew the token first and opens again only with a new one.
// Screens that would otherwise poll ask `isLive()` / `useLive()` and poll only without it.
import { useSyncExternalStore } from 'react';

/** A frame from the server. */
export interface LiveFrame {
  event: string;
  data?: unknown;
  code?: string;
}

/** Close codes of the server. */
export const CLOSE_UNAUTHENTICATED = 4401;
export const CLOSE_TOO_MANY = 4429;

/** The socket's URL for a page served at `origin`. */
export function socketUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}/api/realtime`;
}

/** How long to wait before the `attempt`-th reconnection (1 s doubling to 30 s). */
export function backoff(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
}

type Listener = () => void;
let live = false;
const listeners = new Set<Listener>();

function setLive(v: boolean) {
  if (live === v) return;
  live = v;
  listeners.forEach((l) => l());
}

/** Whether the store's socket is open and signed in now. */
export const isLive = () => live;

/** The same, for a component: it renders again when the socket opens or drops. */
export function useLive(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    isLive,
    () => false,
  );
}

export interface LinkOptions {
  url: string;
  /** The store token to sign in with now (null: none; the link waits). */
  token: () => string | null;
  /** A frame after AUTH. */
  onFrame: (f: LiveFrame) => void;
  /** The token was refused (`reason` is the error code): the app renews it, and a new
   * token opens a new link (the same one would be refused again). */
  onRefused: (reason: string) => void;
  /** The WebSocket to use (tests give their own). */
  socket?: (url: string) => WebSocket;
  /** Timers (tests give their own). */
  setTimer?: (f: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

/** Opens the store's socket and keeps it open until `close()`. */
export function openLink(o: LinkOptions): { close: () => void } {
  const make = o.socket ?? ((u: string) => new WebSocket(u));
  const setTimer = o.setTimer ?? ((f, ms) => setTimeout(f, ms));
  const clearTimer = o.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  let ws: WebSocket | null = null;
  let timer: unknown = null;
  let attempt = 0;
  let stopped = false;

  const later = () => {
    if (stopped) return;
    timer = setTimer(connect, backoff(attempt));
    attempt += 1;
  };

  function connect() {
    timer = null;
    if (stopped) return;
    const token = o.token();
    if (!token) return;
    const socket = make(o.url);
    ws = socket;
    let signedIn = false;
    socket.onopen = () => socket.send(JSON.stringify({ event: 'AUTH', token }));
    socket.onmessage = (m: MessageEvent) => {
      let f: LiveFrame;
      try {
        f = JSON.parse(String(m.data)) as LiveFrame;
      } catch {
        return;
      }
      if (!signedIn) {
        if (f.event !== 'AUTH') return;
        signedIn = true;
        attempt = 0;
        setLive(true);
        socket.send(JSON.stringify({ event: 'PRODUCT_SYNC_STOCK_ALL' }));
        return;
      }
      o.onFrame(f);
    };
    socket.onclose = (e: CloseEvent) => {
      if (ws === socket) ws = null;
      setLive(false);
      if (stopped) return;
      if (e.code === CLOSE_UNAUTHENTICATED) {
        o.onRefused(e.reason);
        return;
      }
      later();
    };
  }

  connect();
  return {
    close() {
      stopped = true;
      if (timer !== null) clearTimer(timer);
      ws?.close(1000);
      ws = null;
      setLive(false);
    },
  };
}
