/**
 * The demo tool `image`: a 16×16 RGB gradient PNG, built in code (so the package ships no binary files) once
 * per process and kept as base64.
 */
import { deflateSync } from 'node:zlib';
import type { DemoTool } from './tool.js';

let png: string | undefined;

export const image: DemoTool = {
  definition: { name: 'image', description: 'Returns a small PNG image.', inputSchema: { type: 'object' } },
  call() {
    png ??= makePng().toString('base64');
    return { content: [{ type: 'image', data: png, mimeType: 'image/png' }] };
  },
};

/** CRC-32 (IEEE) over a byte range, as PNG chunks require. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A valid `size`×`size` RGB gradient PNG. */
function makePng(size = 16): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour RGB
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3); // each scanline starts with filter byte 0 (None)
    for (let x = 0; x < size; x++) {
      raw[row + 1 + x * 3] = (x * 255) / (size - 1);
      raw[row + 2 + x * 3] = (y * 255) / (size - 1);
      raw[row + 3 + x * 3] = 128;
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
