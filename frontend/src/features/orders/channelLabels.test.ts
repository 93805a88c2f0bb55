import { bytesOf, labelResults, nothingPrinted } from './channelLabels';
import { waysOf } from './ChannelShippingCard';

describe("the platforms' labels", () => {
  it('reads base64 into bytes', () => {
    expect(Array.from(bytesOf(btoa('%PDF-1.7')))).toEqual(Array.from('%PDF-1.7').map((c) => c.charCodeAt(0)));
  });

  it('says of each order asked whether its label was printed, and why not', () => {
    const r = labelResults([1, 2, 3], { printed: [1], failed: [{ orderId: 2, code: 'channel_tracking_pending' }] }, (id) => `SO-${id}`);
    expect(r.data).toEqual([
      { id: 1, ok: true, orderNo: 'SO-1', reason: '', state: '' },
      { id: 2, ok: false, orderNo: 'SO-2', reason: 'channel_tracking_pending', state: '' },
      { id: 3, ok: false, orderNo: 'SO-3', reason: '', state: '' },
    ]);
    expect([r.succeeded, r.failed]).toEqual([1, 2]);
  });

  it('offers the ways a platform gives, pick-up first', () => {
    const slot = { id: '1', date: '', text: '' };
    expect(waysOf({ pickup: [{ id: 'a', address: '', isDefault: true, slots: [slot] }], dropoff: true, ownCarrier: true, platform: false })).toEqual(['pickup', 'dropoff', 'own_carrier']);
    expect(waysOf({ pickup: [], dropoff: false, ownCarrier: true, platform: false })).toEqual(['own_carrier']);
    // Lazada and TikTok Shop (Thailand): as the shop is set up on the platform, its only way.
    expect(waysOf({ pickup: [], dropoff: false, ownCarrier: false, platform: true })).toEqual(['platform']);
  });
});

describe('a print that printed nothing', () => {
  it("stands for the first order's refusal, or none printable", () => {
    expect(nothingPrinted({ failed: [{ code: 'channel_tracking_pending' }] }).data.error.code).toBe('channel_tracking_pending');
    expect(nothingPrinted({ failed: [] })).toEqual({ status: 409, data: { error: { code: 'channel_labels_none', message: '', message_key: '' } } });
  });
});
