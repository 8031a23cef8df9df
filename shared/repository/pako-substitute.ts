/**
 * zlib for isomorphic-git inside the function bundles, from node:zlib: the bundles substitute it
 * for `pako` (lib/bundling.ts), which would add 46 kB of JavaScript zlib to every bundle that
 * carries isomorphic-git. isomorphic-git uses `inflate(buffer)`, `deflate(buffer)` and, to find
 * where each object of a pack ends, `new Inflate()` with `push(chunk, false)`, `result`, `err`,
 * `msg` and `strm.avail_in`; only those are provided, with pako's meaning.
 */
import { deflateSync, inflateSync, type ZlibOptions } from 'node:zlib';

/** pako's results are plain Uint8Arrays (their `slice` copies); a view over zlib's Buffer is one. */
function plain(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Inflates one zlib stream, ignoring bytes after its end as pako does. */
export function inflate(input: Uint8Array): Uint8Array {
  try {
    return plain(inflateSync(input));
  } catch (error) {
    // pako throws its message as a string; isomorphic-git turns a string into its
    // DecompressionError and passes other errors on, so corrupt objects keep that error.
    throw error instanceof Error ? error.message : String(error);
  }
}

export function deflate(input: Uint8Array): Uint8Array {
  return plain(deflateSync(input));
}

/** The counts `inflateSync(…, { info: true })` reports next to its output. */
interface InflateInfo {
  buffer: Buffer;
  engine: { bytesWritten: number };
}
const withInfo: ZlibOptions & { info: true } = { info: true };

/**
 * pako's streaming inflater as listpack drives it: chunks are pushed until `result` holds the
 * inflated stream; `strm.avail_in` is then how many bytes of the last chunk follow the stream.
 * Pushed chunks are kept until the stream is complete and inflated whole each time: a chunk is
 * what the pack reader holds (the rest of the pack when it has the pack in one buffer), so an
 * object rarely spans two.
 */
export class Inflate {
  result: Uint8Array | undefined = undefined;
  err = 0;
  msg = '';
  readonly strm = { avail_in: 0 };
  private pending: Uint8Array[] = [];

  push(chunk: Uint8Array, _final?: boolean): boolean {
    if (this.result !== undefined || this.err !== 0) return false;
    this.pending.push(chunk);
    const input = this.pending.length === 1 ? chunk : Buffer.concat(this.pending);
    let inflated: InflateInfo;
    try {
      inflated = inflateSync(input, withInfo) as unknown as InflateInfo;
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      // The stream goes on in a later chunk.
      if (failure.code === 'Z_BUF_ERROR') return true;
      this.err = typeof failure.errno === 'number' && failure.errno !== 0 ? failure.errno : -3;
      this.msg = failure.message;
      return false;
    }
    this.pending = [];
    // The stream ends in the last chunk (it did not end in the earlier ones), so all the bytes
    // it left are that chunk's.
    this.strm.avail_in = input.byteLength - inflated.engine.bytesWritten;
    this.result = plain(inflated.buffer);
    return true;
  }
}

export default { inflate, deflate, Inflate };
