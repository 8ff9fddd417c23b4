/** Hands a file to the browser's downloads, as a link with `download` would. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  // Firefox only follows a link that is in the document.
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers read the object URL after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
