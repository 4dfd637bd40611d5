/** Small files whose first bytes are what the server checks (it reads content, not names). */
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PDF = [...'%PDF-1.4\n'].map((c) => c.charCodeAt(0));

function padded(head: number[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head);
  return bytes;
}

export const pngFile = (name = 'cover.png', size = 256) =>
  new File([padded(PNG, size)], name, { type: 'image/png' });

export const pdfFile = (name = 'chapter.pdf', size = 512) =>
  new File([padded(PDF, size)], name, { type: 'application/pdf' });
