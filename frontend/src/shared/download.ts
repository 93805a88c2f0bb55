// A file the app already holds (an object URL or a Blob), saved where the browser saves
// downloads through a temporary link. The object URL is given back only a minute later: a
// browser still reading the file when it is revoked drops the download without a word.

/** Saves the file at `url` (an object URL this helper then revokes) as `name`. */
export function saveObjectUrl(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves `blob` as `name`. */
export function saveBlob(blob: Blob, name: string): void {
  saveObjectUrl(URL.createObjectURL(blob), name);
}
