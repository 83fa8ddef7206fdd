// Save text as a file with no request: a Blob URL on a temporary <a download>. Blob URLs are not
// fetches, so they work under the single file's CSP (connect-src 'none') and offline.
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // the browser has taken the file once the click is handled
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
