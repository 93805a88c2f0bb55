// A file the API answers, saved where the browser saves downloads: the name the server gives
// (Content-Disposition), else the fallback.

import { saveBlob } from '@/shared/download';

/** The file name of a Content-Disposition header, if it names one. */
export function fileNameOf(disposition: string | null | undefined): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* the plain name below */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : null;
}

/** Saves `blob` through a temporary link. */
export function saveDownload(blob: Blob, disposition: string | null, fallback: string): void {
  saveBlob(blob, fileNameOf(disposition) ?? fallback);
}
