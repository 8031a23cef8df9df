/**
 * What a remote may send in one fetch, and the check of a received pack before isomorphic-git
 * indexes it. Indexing inflates every object whole in memory, so a pack of a few kilobytes that
 * declares (or inflates to) a multi-gigabyte object would exhaust the worker: each entry is
 * inflated here with its output capped, and the pack is refused at the first entry over a bound.
 *
 * A pack: "PACK", version, object count, then per object a header (type, inflated size; a delta
 * adds its base's offset or id) and a zlib stream; a delta's stream starts with its base's size
 * and the size of the object it makes. The trailing checksum is isomorphic-git's to check.
 */
import { inflateSync } from 'node:zlib';
import { deltaHeader } from './object-headers.ts';

export interface FetchLimits {
  /** Bytes of every answer of one fetch together (the ref advertisement and the pack). */
  bytes: number;
  /** Objects one pack may hold. */
  objects: number;
  /** Inflated bytes of one object (a delta: of the object it makes, and of its instructions). */
  objectBytes: number;
  /** Inflated bytes of all the pack's objects together. */
  inflatedBytes: number;
}

/** The bounds of a fetch; tests lower them (or pass their own to importFromRemote). */
export const fetchLimits: FetchLimits = {
  bytes: 512 * 1024 * 1024,
  objects: 2_000_000,
  objectBytes: 100 * 1024 * 1024,
  inflatedBytes: 4 * 1024 * 1024 * 1024,
};

/** A remote sent more than a fetch may take; the message is safe to show. */
export class FetchLimitExceeded extends Error {
  override readonly name = 'FetchLimitExceeded';
}

const OFS_DELTA = 6;
const REF_DELTA = 7;
const BASE_TYPES = new Set([1, 2, 3, 4]);
const TRAILER = 20;

/** A bound or a size as a message shows it. */
export const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.floor(bytes / (1024 * 1024))} MiB` : `${bytes} bytes`;

function corrupt(what: string): FetchLimitExceeded {
  return new FetchLimitExceeded(`The remote sent a corrupt pack: ${what}`);
}

/**
 * Throws FetchLimitExceeded when the pack holds more objects than allowed, an object declared or
 * inflating past its bound (before more than the bound is inflated), or more inflated bytes in all
 * than allowed; also when an entry is malformed or inflates to another size than it declares.
 */
export function checkPack(pack: Buffer, limits: FetchLimits = fetchLimits): void {
  if (pack.length < 12 + TRAILER || pack.toString('latin1', 0, 4) !== 'PACK') throw corrupt('no pack header');
  const version = pack.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw corrupt(`version ${version}`);
  const count = pack.readUInt32BE(8);
  if (count > limits.objects) {
    throw new FetchLimitExceeded(
      `The remote's pack holds ${count} objects, more than the ${limits.objects} a fetch may take`,
    );
  }
  const end = pack.length - TRAILER;
  let at = 12;
  let inflatedTotal = 0;
  for (let index = 0; index < count; index++) {
    if (at >= end) throw corrupt('it ends before its last object');
    let byte = pack[at++] as number;
    const type = (byte >> 4) & 7;
    let size = byte & 0x0f;
    let shift = 4;
    while (byte & 0x80) {
      if (at >= end) throw corrupt('an object header is truncated');
      byte = pack[at++] as number;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (type === OFS_DELTA) {
      do {
        if (at >= end) throw corrupt('a delta header is truncated');
        byte = pack[at++] as number;
      } while (byte & 0x80);
    } else if (type === REF_DELTA) {
      at += 20;
    } else if (!BASE_TYPES.has(type)) {
      throw corrupt(`an object of type ${type}`);
    }
    if (size > limits.objectBytes) throw tooLarge(size, limits);
    let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
    try {
      // Output capped at the declared size: a stream that inflates further is refused mid-way.
      inflated = inflateSync(pack.subarray(at, end), {
        info: true,
        maxOutputLength: Math.max(size, 1),
      }) as unknown as typeof inflated;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new FetchLimitExceeded(
          `The remote's pack holds an object that inflates past the ${sizeText(size)} it declares`,
        );
      }
      throw corrupt('an object does not inflate');
    }
    if (inflated.buffer.length !== size) throw corrupt('an object inflates to another size than it declares');
    let made = size;
    if (type === OFS_DELTA || type === REF_DELTA) {
      const header = deltaHeader(inflated.buffer);
      if (header === undefined)
        throw new FetchLimitExceeded('The remote sent a corrupt pack: a delta is truncated');
      made = header.resultSize;
      if (made > limits.objectBytes) throw tooLarge(made, limits);
    }
    inflatedTotal += made;
    if (inflatedTotal > limits.inflatedBytes) {
      throw new FetchLimitExceeded(
        `The remote's objects inflate to more than the ${sizeText(limits.inflatedBytes)} a fetch may take`,
      );
    }
    at += inflated.engine.bytesWritten;
  }
}

const tooLarge = (size: number, limits: FetchLimits) =>
  new FetchLimitExceeded(
    `The remote's pack holds an object of ${sizeText(size)}, more than the ${sizeText(limits.objectBytes)} an object may have`,
  );
