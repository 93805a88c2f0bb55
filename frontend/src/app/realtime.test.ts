import { applyFrame } from './LiveLink';
import { backoff, isLive, openLink, socketUrl, type LiveFrame } from './realtime';
import { listingsApi } from '@/features/marketplaces/api';
import { signedInStore } from '@/shared/testing/session';

// A WebSocket the test drives: it records what the app sends and lets the test play the server.
class FakeSocket {
  sent: unknown[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(public url: string) {}
  send(s: string) {
    this.sent.push(JSON.parse(s));
  }
  close(code: number) {
    this.closedWith = code;
  }
  // The server's side.
  open() {
    this.onopen?.();
  }
  say(f: LiveFrame | string) {
    this.onmessage?.({ data: typeof f === 'string' ? f : JSON.stringify(f) });
  }
  drop(code: number, reason = '') {
    this.onclose?.({ code, reason });
  }
}

function harness(token: () => string | null = () => 'store-token') {
  const sockets: FakeSocket[] = [];
  const timers: { f: () => void; ms: number }[] = [];
  const frames: LiveFrame[] = [];
  const refused: string[] = [];
  const link = openLink({
    url: 'ws://shop.test/api/realtime',
    token,
    onFrame: (f) => frames.push(f),
    onRefused: (r) => refused.push(r),
    socket: (u) => {
      const s = new FakeSocket(u);
      sockets.push(s);
      return s as unknown as WebSocket;
    },
    setTimer: (f, ms) => {
      const t = { f, ms };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => {
      const i = timers.indexOf(t as { f: () => void; ms: number });
      if (i >= 0) timers.splice(i, 1);
    },
  });
  return { sockets, timers, frames, refused, link };
}

describe('the realtime link', () => {
  it('signs in with the store token first, then asks for the sync status and hands on frames', () => {
    const h = harness();
    expect(h.sockets).toHaveLength(1);
    const s = h.sockets[0];
    s.open();
    expect(s.sent).toEqual([{ event: 'AUTH', token: 'store-token' }]);
    // Nothing before the server's AUTH counts.
    s.say({ event: 'ORDER_CREATED' });
    expect(h.frames).toEqual([]);
    expect(isLive()).toBe(false);
    s.say({ event: 'AUTH' });
    expect(isLive()).toBe(true);
    expect(s.sent[1]).toEqual({ event: 'PRODUCT_SYNC_STOCK_ALL' });
    s.say('not json');
    s.say({ event: 'ORDER_CREATED', data: { orderId: 7 } });
    expect(h.frames).toEqual([{ event: 'ORDER_CREATED', data: { orderId: 7 } }]);
    h.link.close();
    expect(s.closedWith).toBe(1000);
    expect(isLive()).toBe(false);
  });

  it('opens again after a drop, waiting longer each time, and from the start once signed in', () => {
    const h = harness();
    h.sockets[0].drop(1006);
    expect(isLive()).toBe(false);
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.timers.shift()!.f();
    expect(h.sockets).toHaveLength(2);
    h.sockets[1].drop(1006);
    expect(h.timers.map((t) => t.ms)).toEqual([2000]);
    h.timers.shift()!.f();
    const third = h.sockets[2];
    third.open();
    third.say({ event: 'AUTH' });
    third.drop(1011);
    // Signed in once: the next wait starts again at one second.
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.link.close();
    expect(h.timers).toEqual([]);
  });

  it('asks the app for a new token when the server refuses this one, and does not retry it', () => {
    const h = harness();
    h.sockets[0].open();
    h.sockets[0].drop(4401, 'STORE_TOKEN_EXPIRED');
    expect(h.refused).toEqual(['STORE_TOKEN_EXPIRED']);
    expect(h.timers).toEqual([]);
    expect(h.sockets).toHaveLength(1);
  });

  it('waits without a token', () => {
    const h = harness(() => null);
    expect(h.sockets).toEqual([]);
  });

  it('caps the wait at thirty seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(backoff)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(socketUrl('https://shop.example')).toBe('wss://shop.example/api/realtime');
    expect(socketUrl('http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/api/realtime');
  });
});

describe('a frame', () => {
  it("puts each shop's stock sync status where the listings screen reads it", () => {
    const store = signedInStore();
    applyFrame(
      {
        event: 'PRODUCT_SYNC_STOCK_ALL',
        data: [
          { store_channel_id: 4, status: 'in_progress', done: 3, total: 10, started_at: '2026-12-02T10:00:00Z', finished_at: '' },
          { store_channel_id: 5, status: 'finished', done: 2, total: 2, started_at: '2026-12-02T09:00:00Z', finished_at: '2026-12-02T09:00:05Z' },
        ],
      },
      store.dispatch,
    );
    const read = (id: number) => listingsApi.endpoints.stockSync.select({ id })(store.getState() as Parameters<ReturnType<typeof listingsApi.endpoints.stockSync.select>>[0]).data;
    expect(read(4)).toMatchObject({ storeChannelId: 4, status: 'in_progress', done: 3, total: 10 });
    expect(read(5)).toMatchObject({ storeChannelId: 5, status: 'finished', finishedAt: '2026-12-02T09:00:05Z' });
  });
});
