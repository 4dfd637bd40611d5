/** Hands a file to the browser's downloads (an object URL on a link, clicked, then released). */
export function downloadFile(file: File): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  // Released after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
