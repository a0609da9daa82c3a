/**
 * A PNG file from raw RGBA pixels, for games that have pixels and no encoder: a RenderTexture's
 * readPixels() on a phone (Cocos's native runtime has no canvas to encode with). The image data
 * is stored, not compressed (zlib "stored" blocks): a 256×256 badge is 257 KiB, which the
 * bridge carries in one message; scale large pictures down first.
 */
import { AgentError } from './errors';
import { imageFromBytes, MAX_IMAGE_BYTES, type ImageInput } from './image-input';

export interface RgbaPixels {
  width: number;
  height: number;
  /** 4 bytes per pixel, rows top to bottom (set `flipY` for rows bottom to top, as GL reads them). */
  pixels: Uint8Array;
  /** True when the rows run bottom to top (readPixels() of a RenderTexture on WebGL/GLES). */
  flipY?: boolean;
  label?: string;
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array, from: number, to: number): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let entry = 0; entry < 256; entry++) {
      let value = entry;
      for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
      crcTable[entry] = value >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let at = from; at < to; at++) crc = crcTable[(crc ^ bytes[at]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function writeUint32(out: Uint8Array, at: number, value: number): void {
  out[at] = (value >>> 24) & 0xff;
  out[at + 1] = (value >>> 16) & 0xff;
  out[at + 2] = (value >>> 8) & 0xff;
  out[at + 3] = value & 0xff;
}

/** The filtered scanlines (filter 0 on every row), rows top to bottom. */
function scanlines(image: RgbaPixels): Uint8Array {
  const { width, height, pixels, flipY } = image;
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  for (let row = 0; row < height; row++) {
    const source = (flipY ? height - 1 - row : row) * stride;
    raw.set(pixels.subarray(source, source + stride), row * (stride + 1) + 1);
  }
  return raw;
}

/** zlib stream of stored blocks around `raw`. */
function zlibStored(raw: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(raw.length / 65535));
  const out = new Uint8Array(2 + blocks * 5 + raw.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let block = 0; block < blocks; block++) {
    const start = block * 65535;
    const size = Math.min(65535, raw.length - start);
    out[at] = block === blocks - 1 ? 1 : 0;
    out[at + 1] = size & 0xff;
    out[at + 2] = size >>> 8;
    out[at + 3] = ~size & 0xff;
    out[at + 4] = (~size >>> 8) & 0xff;
    out.set(raw.subarray(start, start + size), at + 5);
    at += 5 + size;
  }
  let sumA = 1;
  let sumB = 0;
  for (let index = 0; index < raw.length; index++) {
    sumA = (sumA + raw[index]) % 65521;
    sumB = (sumB + sumA) % 65521;
  }
  writeUint32(out, at, ((sumB << 16) | sumA) >>> 0);
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  writeUint32(out, 0, data.length);
  for (let index = 0; index < 4; index++) out[4 + index] = type.charCodeAt(index);
  out.set(data, 8);
  writeUint32(out, 8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** The bytes of a PNG file (8-bit RGBA) holding the pixels. */
export function encodePng(image: RgbaPixels): Uint8Array {
  const { width, height, pixels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new AgentError('invalid_request', `The picture must be at least 1×1 pixels, got ${width}×${height}.`);
  if (!pixels || pixels.length < width * height * 4)
    throw new AgentError(
      'invalid_request',
      `The pixels must be RGBA, ${width * height * 4} bytes for ${width}×${height}, got ${pixels ? pixels.length : 0}.`,
    );
  if ((width * 4 + 1) * height > MAX_IMAGE_BYTES)
    throw new AgentError(
      'invalid_request',
      `A ${width}×${height} picture is too large to send (over ${MAX_IMAGE_BYTES} bytes); scale it down first.`,
    );
  const header = new Uint8Array(13);
  writeUint32(header, 0, width);
  writeUint32(header, 4, height);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibStored(scanlines(image))),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** An ImageInput (PNG) from raw RGBA pixels. */
export function imageFromPixels(image: RgbaPixels): ImageInput {
  const extra: Pick<ImageInput, 'width' | 'height' | 'label'> = { width: image.width, height: image.height };
  if (image.label !== undefined) extra.label = image.label;
  return imageFromBytes(encodePng(image), 'image/png', extra);
}
