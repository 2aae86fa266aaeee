/**
 * Just enough PNG reading to check rendered icons: size from the IHDR chunk, and 8-bit RGB(A)
 * pixels (what Chromium writes) for colour checks. Build-time only; no dependencies.
 */
import { inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA */
  colorType: number;
  interlace: number;
}

/** Reads the IHDR chunk, which the format requires to come first. */
export function readPngHeader(png: Buffer): PngHeader {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('PNG without IHDR first');
  return {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    bitDepth: png.readUInt8(24),
    colorType: png.readUInt8(25),
    interlace: png.readUInt8(28),
  };
}

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, row by row, straight (not premultiplied) alpha. */
  data: Buffer;
}

/** Decodes a non-interlaced 8-bit RGB or RGBA PNG into RGBA pixels. */
export function decodePng(png: Buffer): RgbaImage {
  const header = readPngHeader(png);
  const channels = header.colorType === 6 ? 4 : header.colorType === 2 ? 3 : 0;
  if (header.bitDepth !== 8 || channels === 0 || header.interlace !== 0) {
    throw new Error(`unsupported PNG: bit depth ${header.bitDepth}, colour type ${header.colorType}, interlace ${header.interlace}`);
  }
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const { width, height } = header;
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('PNG image data is truncated');
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const above = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? row[x - channels]! : 0;
      const b = above[x]!;
      const c = x >= channels ? above[x - channels]! : 0;
      const value = line[x]!;
      switch (filter) {
        case 0: row[x] = value; break;
        case 1: row[x] = (value + a) & 0xff; break;
        case 2: row[x] = (value + b) & 0xff; break;
        case 3: row[x] = (value + ((a + b) >> 1)) & 0xff; break;
        case 4: row[x] = (value + paeth(a, b, c)) & 0xff; break;
        default: throw new Error(`PNG row ${y} has unknown filter ${filter}`);
      }
    }
  }
  if (channels === 4) return { width, height, data: pixels };
  const data = Buffer.alloc(width * height * 4, 0xff);
  for (let i = 0; i < width * height; i++) pixels.copy(data, i * 4, i * 3, i * 3 + 3);
  return { width, height, data };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export interface AlphaStats {
  /** Pixels with any coverage. */
  visible: number;
  /** Fully opaque pixels. */
  opaque: number;
  /** Visible pixels whose colour is not pure black. */
  nonBlack: number;
  total: number;
}

/** What a macOS template image must be: black, shaped by alpha alone. */
export function alphaStats(image: RgbaImage): AlphaStats {
  const stats: AlphaStats = { visible: 0, opaque: 0, nonBlack: 0, total: image.width * image.height };
  for (let i = 0; i < image.data.length; i += 4) {
    const alpha = image.data[i + 3]!;
    if (alpha === 0) continue;
    stats.visible++;
    if (alpha === 255) stats.opaque++;
    if (image.data[i] !== 0 || image.data[i + 1] !== 0 || image.data[i + 2] !== 0) stats.nonBlack++;
  }
  return stats;
}
