/**
 * What a stored file is, as its bytes show it: the one rule that decides the type a file is served
 * with (uploads and avatars alike). Only formats whose leading bytes identify them reliably are
 * recognized, and only images, audio and video: never SVG, HTML or XML, whatever a file is called or
 * was declared as. Anything else is `application/octet-stream`, downloaded, never shown in place.
 */

/** How many leading bytes decide a file's type: every signature below lies within them. */
export const SNIFF_BYTES = 64;

/** The type of a file no signature recognizes: bytes to download, never rendered. */
export const OPAQUE_TYPE = 'application/octet-stream';

const startsWith = (content: Buffer, bytes: readonly number[], offset = 0) =>
  content.length >= offset + bytes.length && bytes.every((byte, index) => content[offset + index] === byte);

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

type Kind = 'image' | 'audio' | 'video';

interface Signature {
  kind: Kind;
  /** The type the bytes are served with; undefined when they are not this format. */
  typeOf: (content: Buffer) => string | undefined;
}

/** A format with one type, recognized by `matches`. */
const format = (kind: Kind, contentType: string, matches: (content: Buffer) => boolean): Signature => ({
  kind,
  typeOf: (content) => (matches(content) ? contentType : undefined),
});

/** MPEG audio layer III frame header: sync, a defined version, a usable bitrate and sample rate. */
function isMp3Frame(c: Buffer): boolean {
  if (c.length < 4 || c[0] !== 0xff) return false;
  const b1 = c[1] as number;
  const b2 = c[2] as number;
  const synced = (b1 & 0xe0) === 0xe0;
  const version = (b1 >> 3) & 0x03; // 1 is reserved
  const layer = (b1 >> 1) & 0x03; // 1 is layer III
  const bitrate = b2 >> 4; // 0 (free) and 15 (bad) are not relied on
  const sampleRate = (b2 >> 2) & 0x03; // 3 is reserved
  return synced && version !== 1 && layer === 1 && bitrate !== 0 && bitrate !== 15 && sampleRate !== 3;
}

/** An ID3v2 tag (what most MP3 files open with): "ID3", version 2 to 4, a syncsafe size. */
const isId3 = (c: Buffer) =>
  startsWith(c, ascii('ID3')) &&
  c.length >= 10 &&
  [2, 3, 4].includes(c[3] as number) &&
  (c[4] as number) !== 0xff &&
  [6, 7, 8, 9].every((index) => (c[index] as number) < 0x80);

/** Ogg: its first page opens the first stream; Theora there is a video, anything else audio. */
function oggType(c: Buffer): string | undefined {
  if (!startsWith(c, ascii('OggS')) || c[4] !== 0 || c.length < 28) return undefined;
  const packet = 27 + (c[26] as number);
  return startsWith(c, [0x80, ...ascii('theora')], packet) ? 'video/ogg' : 'audio/ogg';
}

/** The brands of an ISO media file's `ftyp` box this rule knows, and what each one is. */
// Built on first use, as SIGNATURES: a module-level table built by calls stays in every bundle
// that imports this module, whether or not it sniffs anything.
let isoBrands: Record<string, string> | undefined;
const ISO_BRANDS = (): Record<string, string> =>
  (isoBrands ??= {
    'M4A ': 'audio/mp4',
    'M4B ': 'audio/mp4',
    'qt  ': 'video/quicktime',
    ...Object.fromEntries(
      ['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash', 'mmp4'].map(
        (brand) => [brand, 'video/mp4'],
      ),
    ),
  });

/** MP4, M4A and QuickTime: a leading `ftyp` box of a sensible size, with a major brand known here. */
function isoMediaType(c: Buffer): string | undefined {
  if (c.length < 16 || !startsWith(c, ascii('ftyp'), 4) || c.readUInt32BE(0) < 16) return undefined;
  const brand = c.toString('latin1', 8, 12);
  return Object.hasOwn(ISO_BRANDS(), brand) ? ISO_BRANDS()[brand] : undefined;
}

/** WebM: an EBML header whose DocType element (0x4282) says "webm" (Matroska's "matroska" is not). */
function isWebm(c: Buffer): boolean {
  if (!startsWith(c, [0x1a, 0x45, 0xdf, 0xa3])) return false;
  for (let at = 4; at + 2 < c.length; at++) {
    if (c[at] !== 0x42 || c[at + 1] !== 0x82) continue;
    // The element's size, an EBML variable-length integer of up to 8 bytes.
    const first = c[at + 2] as number;
    const width = Math.clz32(first) - 23;
    if (width < 1 || width > 8 || at + 2 + width > c.length) return false;
    let size = first & (0xff >> width);
    for (let index = 1; index < width; index++) size = size * 256 + (c[at + 2 + index] as number);
    return size === 4 && startsWith(c, ascii('webm'), at + 2 + width);
  }
  return false;
}

/** Every format served as what it is, by its leading bytes. */
let signatures: Signature[] | undefined;
const SIGNATURES = (): Signature[] =>
  (signatures ??= [
    format('image', 'image/png', (c) => startsWith(c, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    format('image', 'image/jpeg', (c) => startsWith(c, [0xff, 0xd8, 0xff])),
    format('image', 'image/gif', (c) => startsWith(c, ascii('GIF87a')) || startsWith(c, ascii('GIF89a'))),
    // BMP: "BM", then the file size (4 bytes), two reserved words that are zero in practice are not relied on.
    format('image', 'image/bmp', (c) => c.length >= 26 && startsWith(c, ascii('BM'))),
    format(
      'image',
      'image/tiff',
      (c) => startsWith(c, [0x49, 0x49, 0x2a, 0x00]) || startsWith(c, [0x4d, 0x4d, 0x00, 0x2a]),
    ),
    // ICO: reserved 0, type 1 (icon), then at least one image.
    format(
      'image',
      'image/vnd.microsoft.icon',
      (c) => startsWith(c, [0x00, 0x00, 0x01, 0x00]) && c.length >= 6 && (c[4] ?? 0) + (c[5] ?? 0) > 0,
    ),
    format('image', 'image/webp', (c) => startsWith(c, ascii('RIFF')) && startsWith(c, ascii('WEBP'), 8)),
    format('audio', 'audio/mpeg', (c) => isId3(c) || isMp3Frame(c)),
    format('audio', 'audio/wav', (c) => startsWith(c, ascii('RIFF')) && startsWith(c, ascii('WAVE'), 8)),
    format('audio', 'audio/flac', (c) => startsWith(c, ascii('fLaC'))),
    { kind: 'audio', typeOf: oggType },
    { kind: 'video', typeOf: isoMediaType },
    format('video', 'video/webm', isWebm),
  ]);

const typeAmong = (content: Buffer, kinds: readonly Kind[]) => {
  for (const signature of SIGNATURES()) {
    if (!kinds.includes(signature.kind)) continue;
    const type = signature.typeOf(content);
    if (type) return type;
  }
  return undefined;
};

/** The image type the bytes show, or undefined when they are none of the images GitLab takes. */
export const imageTypeOf = (content: Buffer): string | undefined => typeAmong(content, ['image']);

/** The image, audio or video type the bytes show, or undefined when they are none of those. */
export const mediaTypeOf = (content: Buffer): string | undefined =>
  typeAmong(content, ['image', 'audio', 'video']);

/**
 * How a file is served, from its leading bytes (SNIFF_BYTES are enough) and nothing else: an image,
 * audio or video as its own type, in place; anything else as opaque bytes, only ever downloaded.
 */
export function servedType(leading: Buffer): { contentType: string; inline: boolean } {
  const media = mediaTypeOf(leading);
  return media ? { contentType: media, inline: true } : { contentType: OPAQUE_TYPE, inline: false };
}
