// A PDF the API answers (a pick list, a printed receipt, parcel labels), shown in a new
// browser tab. The tab is opened while the click is still being handled, so a popup blocker
// lets it through, and is pointed at the file once it has arrived; without a tab (blocked
// anyway), the file is downloaded.

import { saveObjectUrl } from '../download';

/** A response handler: the PDF as an object URL, or the refusal's JSON. */
export async function pdfUrl(res: Response): Promise<unknown> {
  if (!res.ok) return res.json();
  return URL.createObjectURL(await res.blob());
}

/** Opens the PDF `load` fetches (an object URL) in a new tab, which says `waiting` until it
 * comes; `fileName` names the download when no tab could be opened. A failed load closes
 * the tab and rethrows. */
export async function openPdf(load: () => Promise<string>, fileName: string, waiting = ''): Promise<void> {
  const tab = typeof window.open === 'function' ? window.open('', '_blank') : null;
  if (tab && waiting) {
    try {
      tab.document.title = fileName;
      tab.document.body.textContent = waiting;
    } catch {
      /* not ours to write to: it shows the PDF when it comes */
    }
  }
  let url: string;
  try {
    url = await load();
  } catch (e) {
    tab?.close();
    throw e;
  }
  if (tab) {
    tab.location.href = url;
    // The tab has read the file by then.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } else {
    saveObjectUrl(url, fileName);
  }
}
