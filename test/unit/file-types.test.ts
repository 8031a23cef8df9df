/**
 * The one rule deciding how a stored file is served: by its leading bytes only, an image, audio or
 * video of a fixed list as its own type, in place; anything else (HTML, SVG, XML above all) as
 * application/octet-stream, an attachment, whatever its name or declared type.
 */
import { describe, expect, it } from 'vitest';
import { imageTypeOf, mediaTypeOf, SNIFF_BYTES, servedType } from '#domain/file-types.ts';
import { contentDisposition, downloadOf, newUpload, uploadEntity } from '#domain/uploads.ts';

const hex = (value: string) => Buffer.from(value.replace(/\s/g, ''), 'hex');
const text = (value: string) => Buffer.from(value);
const join = (...parts: (Buffer | string)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? text(part) : part)));

/** A whole 1×1 PNG, as image tools write it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
/** A JPEG's start: SOI, then a JFIF APP0 segment. */
const JPEG = join(hex('ffd8ffe0 0010'), 'JFIF', hex('00 0101 0000 0100 0100 0000'), hex('ffdb 0043 00'));
const HTML = text('<!DOCTYPE html><html><body><script>alert(document.domain)</script></body></html>');
const SVG = text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"/>');
const XHTML = text(
  '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
);

/** An ISO media file's leading `ftyp` box with a major brand (and itself as the compatible one). */
const ftyp = (brand: string) => join(hex('00000018'), 'ftyp', brand, hex('00000200'), brand, 'isom');

/** An Ogg stream's first page, its first packet opening with `packet`. */
const oggPage = (packet: Buffer) =>
  join(
    'OggS',
    hex('00 02'),
    Buffer.alloc(8),
    hex('01020304 00000000 11223344'),
    hex('01'),
    hex('1e'),
    packet,
  );

/** An EBML header whose DocType is `docType` (WebM's, or Matroska's). */
const ebml = (docType: string) =>
  join(
    hex('1a45dfa3 9f 4286 81 01 42f7 81 01 42f2 81 04 42f3 81 08 4282'),
    Buffer.from([0x80 | docType.length]),
    docType,
    hex('4287 81 04 4285 81 02'),
  );

describe('mediaTypeOf (by the leading bytes)', () => {
  it.each([
    ['a whole png', 'image/png', PNG],
    ['jpeg (JFIF)', 'image/jpeg', JPEG],
    ['gif89a', 'image/gif', join('GIF89a', hex('01000100 800000'))],
    ['webp', 'image/webp', join('RIFF', hex('24000000'), 'WEBPVP8 ', Buffer.alloc(8))],
    ['mp3 with an ID3v2 tag', 'audio/mpeg', join('ID3', hex('03 00 00 00000a15'), 'TIT2')],
    [
      'mp3 frame (MPEG-1 layer III, 128 kbit/s, 44.1 kHz)',
      'audio/mpeg',
      join(hex('fffb9064'), Buffer.alloc(16)),
    ],
    ['mp3 frame (MPEG-2 layer III)', 'audio/mpeg', join(hex('fff39064'), Buffer.alloc(16))],
    ['wav', 'audio/wav', join('RIFF', hex('24080000'), 'WAVEfmt ', hex('10000000 0100 0100'))],
    ['flac', 'audio/flac', join('fLaC', hex('00000022 1000 1000'))],
    ['ogg vorbis', 'audio/ogg', oggPage(join(hex('01'), 'vorbis', Buffer.alloc(8)))],
    ['ogg opus', 'audio/ogg', oggPage(join('OpusHead', hex('01 02')))],
    ['ogg theora', 'video/ogg', oggPage(join(hex('80'), 'theora', hex('030201')))],
    ['m4a', 'audio/mp4', ftyp('M4A ')],
    ['mp4 (isom)', 'video/mp4', ftyp('isom')],
    ['mp4 (mp42)', 'video/mp4', ftyp('mp42')],
    ['mov (QuickTime)', 'video/quicktime', ftyp('qt  ')],
    ['webm', 'video/webm', ebml('webm')],
  ])('%s → %s', (_name, type, content) => {
    expect(mediaTypeOf(content)).toBe(type);
    expect(servedType(content)).toEqual({ contentType: type, inline: true });
    // Every signature lies within the bytes a large download reads.
    expect(mediaTypeOf(content.subarray(0, SNIFF_BYTES))).toBe(type);
  });

  it.each([
    ['html', HTML],
    ['svg', SVG],
    ['xhtml', XHTML],
    ['xml', text('<?xml version="1.0"?><x/>')],
    ['plain text', text('hello')],
    ['pdf', text('%PDF-1.7\n%âãÏÓ\n')],
    ['empty', Buffer.alloc(0)],
    ['matroska (not webm)', ebml('matroska')],
    ['avif (an ftyp brand not listed)', ftyp('avif')],
    ['an ftyp box too short to be one', join(hex('00000008'), 'ftypisom', Buffer.alloc(8))],
    ['ID3 with a size that is not syncsafe', join('ID3', hex('03 00 00 0000ff15'))],
    ['ff fb with a reserved sample rate', join(hex('fffb9c64'), Buffer.alloc(16))],
    ['ADTS AAC (layer bits 00)', join(hex('fff15080'), Buffer.alloc(16))],
    ['RIFF that is neither WEBP nor WAVE (AVI)', join('RIFF', hex('24000000'), 'AVI LIST')],
    ['OggS with a version that is not 0', join('OggS', hex('01'), Buffer.alloc(40))],
  ])('%s → none: octet-stream, not inline', (_name, content) => {
    expect(mediaTypeOf(content)).toBeUndefined();
    expect(servedType(content)).toEqual({ contentType: 'application/octet-stream', inline: false });
  });

  it('imageTypeOf knows images only: audio and video are no avatar', () => {
    expect(imageTypeOf(PNG)).toBe('image/png');
    expect(imageTypeOf(ftyp('isom'))).toBeUndefined();
    expect(imageTypeOf(join(hex('fffb9064'), Buffer.alloc(16)))).toBeUndefined();
  });
});

describe('downloadOf (the bytes decide; name and declared or stored type do not)', () => {
  it('real PNG bytes → image/png, inline', () => {
    expect(downloadOf(PNG, 'chart.png')).toEqual({
      contentType: 'image/png',
      headers: { 'Content-Disposition': `inline; filename="chart.png"; filename*=UTF-8''chart.png` },
    });
  });

  it.each([
    ['HTML named x.png (declared text/html)', HTML, 'x.png'],
    ['SVG named a.jpg (declared image/svg+xml)', SVG, 'a.jpg'],
    ['XHTML named b.webp (declared application/xhtml+xml)', XHTML, 'b.webp'],
    ['SVG named as itself', SVG, 'logo.svg'],
    ['HTML named as itself', HTML, 'page.html'],
  ])('%s → application/octet-stream, an attachment', (_name, content, filename) => {
    expect(downloadOf(content, filename)).toEqual({
      contentType: 'application/octet-stream',
      headers: { 'Content-Disposition': `attachment; filename="${filename}"; filename*=UTF-8''${filename}` },
    });
  });

  it('a JPEG named .txt → image/jpeg inline: what the bytes are is what is served', () => {
    expect(downloadOf(JPEG, 'notes.txt')).toEqual({
      contentType: 'image/jpeg',
      headers: { 'Content-Disposition': `inline; filename="notes.txt"; filename*=UTF-8''notes.txt` },
    });
  });

  it('audio and video play in place', () => {
    expect(downloadOf(ftyp('isom'), 'clip.mp4').contentType).toBe('video/mp4');
    expect(downloadOf(ftyp('isom'), 'clip.mp4').headers['Content-Disposition']).toMatch(/^inline; /);
    expect(downloadOf(join('fLaC', hex('00000022')), 'a.flac').contentType).toBe('audio/flac');
  });

  it('attachment: an image still has its type, but is downloaded (GitLab’s avatar downloads)', () => {
    expect(downloadOf(PNG, 'dk.png', { attachment: true })).toEqual({
      contentType: 'image/png',
      headers: { 'Content-Disposition': `attachment; filename="dk.png"; filename*=UTF-8''dk.png` },
    });
  });
});

describe('contentDisposition (RFC 6266, as Rails formats it)', () => {
  it('a plain name as it is, in both forms', () => {
    expect(contentDisposition('inline', 'my_diagram-1.png')).toBe(
      `inline; filename="my_diagram-1.png"; filename*=UTF-8''my_diagram-1.png`,
    );
  });

  it('non-ASCII: `_` in the quoted name, UTF-8 %-escaped in filename*', () => {
    expect(contentDisposition('attachment', 'résumé 😀.pdf')).toBe(
      `attachment; filename="r_sum_ _.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%F0%9F%98%80.pdf`,
    );
  });

  it('quotes, backslashes, separators and line breaks never leave the quotes or start a header', () => {
    expect(contentDisposition('attachment', 'a"b\\c;d\r\nX: y%.txt')).toBe(
      `attachment; filename="a%22b%5Cc%3Bd__X%3A y%25.txt"; filename*=UTF-8''a%22b%5Cc%3Bd%0D%0AX%3A%20y%25.txt`,
    );
  });
});

describe('newUpload stores the type the bytes show, never the declared one', () => {
  it.each([
    ['x.png', 'text/html', HTML, 'application/octet-stream'],
    ['a.jpg', 'image/svg+xml', SVG, 'application/octet-stream'],
    ['b.webp', 'application/xhtml+xml', XHTML, 'application/octet-stream'],
    ['chart.png', 'image/png', PNG, 'image/png'],
    ['photo.bin', 'application/octet-stream', JPEG, 'image/jpeg'],
  ])('%s declared %s → stored as %s', (filename, declared, content, stored) => {
    expect(newUpload(7, { filename, content, contentType: declared }).contentType).toBe(stored);
  });
});

describe('uploadEntity markdown (GitLab decides by the name)', () => {
  const SECRET = '0123456789abcdef0123456789abcdef';
  it.each([
    ['dk.png', 'dk', `![dk](/uploads/${SECRET}/dk.png)`],
    ['clip.mp4', 'clip', `![clip](/uploads/${SECRET}/clip.mp4)`],
    ['song.mp3', 'song', `![song](/uploads/${SECRET}/song.mp3)`],
    // SVG is embedded by GitLab's Markdown (an <img> runs no script), its name kept whole.
    ['logo.svg', 'logo.svg', `![logo.svg](/uploads/${SECRET}/logo.svg)`],
    ['notes.txt', 'notes.txt', `[notes.txt](/uploads/${SECRET}/notes.txt)`],
    ['page.html', 'page.html', `[page.html](/uploads/${SECRET}/page.html)`],
  ])('%s → alt %s, %s', (filename, alt, markdown) => {
    expect(uploadEntity(SECRET, filename, 'g/p')).toEqual({
      alt,
      url: `/uploads/${SECRET}/${filename}`,
      full_path: `/g/p/uploads/${SECRET}/${filename}`,
      markdown,
    });
  });
});
