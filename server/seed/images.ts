/**
 * Demo page scans for the seeded book pages: small PNGs drawn here (a coloured heading band
 * and grey lines of "text" on a white page), so a fresh install shows real thumbnails without
 * shipping image files.
 */
import { crc32, deflateSync } from 'node:zlib';

const WIDTH = 120;
const HEIGHT = 160;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A page image whose heading band has the colour `rgb`. */
export function demoPageImage(rgb: readonly [number, number, number]): Uint8Array {
  const rows: Buffer[] = [];
  for (let y = 0; y < HEIGHT; y++) {
    const row = Buffer.alloc(1 + WIDTH * 3, 255);
    row[0] = 0; // filter: none
    for (let x = 0; x < WIDTH; x++) {
      const band = y < 28;
      const line = y >= 44 && (y - 44) % 12 < 4 && x >= 12 && x < (y % 5 === 0 ? 84 : 108);
      const colour = band ? rgb : line ? ([190, 190, 190] as const) : null;
      if (colour) row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}
