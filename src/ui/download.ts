/** Hands text to the browser as a downloaded file (the template, an export, refused rows). */
export function downloadText(fileName: string, text: BlobPart, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy by the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
