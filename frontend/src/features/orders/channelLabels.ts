// The platforms' labels come as one PDF in base64 beside the orders not printed: the PDF is
// opened as an object URL.

/** The bytes of base64 text. */
export function bytesOf(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The refusal a label print that printed nothing stands for, shaped as the API's (so the
 * PDF opener words it like any other): the first order's code, or none printable. */
export function nothingPrinted(r: { failed: { code: string }[] }): { status: number; data: { error: { code: string; message: string; message_key: string } } } {
  return { status: 409, data: { error: { code: r.failed[0]?.code ?? 'channel_labels_none', message: '', message_key: '' } } };
}

/** An object URL of a PDF sent as base64. */
export function pdfOfLabels(base64: string): string {
  return URL.createObjectURL(new Blob([bytesOf(base64) as BlobPart], { type: 'application/pdf' }));
}

/** A platform call on many orders (labels printed, shipments arranged) as a bulk action's
 * result: each order asked for, done or not and why. */
export function doneResults(
  ids: number[],
  done: number[],
  failed: { orderId: number; code: string }[],
  orderNo: (id: number) => string,
): { data: { id: number; ok: boolean; orderNo: string; reason: string; state: string }[]; failed: number; succeeded: number } {
  const data = ids.map((id) => {
    const failure = failed.find((f) => f.orderId === id);
    return { id, ok: !failure && done.includes(id), orderNo: orderNo(id), reason: failure?.code ?? '', state: '' };
  });
  return { data, failed: data.filter((d) => !d.ok).length, succeeded: data.filter((d) => d.ok).length };
}

/** A label print as a bulk action's result. */
export function labelResults(ids: number[], r: { printed: number[]; failed: { orderId: number; code: string }[] }, orderNo: (id: number) => string) {
  return doneResults(ids, r.printed, r.failed, orderNo);
}
