/**
 * The check of a received pack: the object count, each object's declared and inflated size (a
 * stream inflating past what it declares is cut there), a delta's result size, the inflated total,
 * and malformed packs; an honest pack passes.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkPack, FetchLimitExceeded, type FetchLimits } from '../../shared/repository/pack-scan.ts';
import {
  buildPack,
  commitWithBlob,
  entry,
  OBJECT_TYPES,
  objectId,
  plainEntry,
  zeros,
} from '../support/crafted-remote.ts';

const limits: FetchLimits = { bytes: 1 << 30, objects: 10, objectBytes: 1024 * 1024, inflatedBytes: 4 << 20 };

const refusal = (pack: Buffer, bounds = limits) => {
  try {
    checkPack(pack, bounds);
  } catch (error) {
    expect(error).toBeInstanceOf(FetchLimitExceeded);
    return (error as Error).message;
  }
  return undefined;
};

/** A delta's instructions: base size, result size, one insert of `data`. */
const deltaInstructions = (baseSize: number, resultSize: number, data: Buffer) => {
  const varint = (value: number) => {
    const bytes: number[] = [];
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 128);
    }
    bytes.push(rest);
    return Buffer.from(bytes);
  };
  return Buffer.concat([varint(baseSize), varint(resultSize), Buffer.from([data.length]), data]);
};

describe('checkPack', () => {
  it('passes an honest pack of a commit, a tree and a blob', () => {
    const content = Buffer.from('hello\n');
    const { pack } = commitWithBlob(objectId('blob', content), plainEntry(OBJECT_TYPES.blob, content));
    expect(refusal(pack)).toBeUndefined();
  });

  it('passes an empty blob and a small delta', () => {
    const base = Buffer.from('base content\n');
    const instructions = deltaInstructions(base.length, 5, Buffer.from('hello'));
    const pack = buildPack([
      plainEntry(OBJECT_TYPES.blob, Buffer.alloc(0)),
      plainEntry(OBJECT_TYPES.blob, base),
      entry(
        OBJECT_TYPES.refDelta,
        instructions.length,
        deflateSync(instructions),
        Buffer.from(objectId('blob', base), 'hex'),
      ),
    ]);
    expect(refusal(pack)).toBeUndefined();
  });

  it('refuses more objects than allowed before reading any', () => {
    const pack = buildPack([plainEntry(OBJECT_TYPES.blob, Buffer.from('x'))], 11);
    expect(refusal(pack)).toBe("The remote's pack holds 11 objects, more than the 10 a fetch may take");
  });

  it('refuses an object declaring more than an object may have, without inflating it', () => {
    const pack = buildPack([entry(OBJECT_TYPES.blob, 3 * 1024 * 1024 * 1024, deflateSync(Buffer.from('x')))]);
    expect(refusal(pack)).toBe(
      "The remote's pack holds an object of 3072 MiB, more than the 1 MiB an object may have",
    );
  });

  it('cuts a stream that inflates past what its object declares (a zip bomb)', async () => {
    const started = process.memoryUsage().rss;
    const pack = buildPack([entry(OBJECT_TYPES.blob, 16, await zeros(64 * 1024 * 1024))]);
    expect(pack.length).toBeLessThan(128 * 1024);
    expect(refusal(pack)).toBe(
      "The remote's pack holds an object that inflates past the 16 bytes it declares",
    );
    // Nothing near the 64 MiB was held.
    expect(process.memoryUsage().rss - started).toBeLessThan(48 * 1024 * 1024);
  });

  it('refuses a delta making an object larger than allowed', () => {
    const instructions = deltaInstructions(1, 2 * 1024 * 1024, Buffer.from('x'));
    const pack = buildPack([
      entry(OBJECT_TYPES.ofsDelta, instructions.length, deflateSync(instructions), Buffer.from([0x05])),
    ]);
    expect(refusal(pack)).toBe(
      "The remote's pack holds an object of 2 MiB, more than the 1 MiB an object may have",
    );
  });

  it('refuses objects inflating to more than allowed in all', () => {
    const megabyte = Buffer.alloc(1024 * 1024 - 1, 1);
    const entries = Array.from({ length: 5 }, (_, index) =>
      plainEntry(OBJECT_TYPES.blob, Buffer.concat([megabyte, Buffer.from([index])])),
    );
    expect(refusal(buildPack(entries))).toBe(
      "The remote's objects inflate to more than the 4 MiB a fetch may take",
    );
  });

  it('refuses malformed packs', () => {
    expect(refusal(Buffer.from('not a pack at all, not at all, no'))).toBe(
      'The remote sent a corrupt pack: no pack header',
    );
    const short = buildPack([plainEntry(OBJECT_TYPES.blob, Buffer.from('x'))], 2);
    expect(refusal(short)).toBe('The remote sent a corrupt pack: it ends before its last object');
    const lying = buildPack([entry(OBJECT_TYPES.blob, 9, deflateSync(Buffer.from('abc')))]);
    expect(refusal(lying)).toBe(
      'The remote sent a corrupt pack: an object inflates to another size than it declares',
    );
    const garbage = buildPack([entry(OBJECT_TYPES.blob, 3, Buffer.from('garbage!'))]);
    expect(refusal(garbage)).toBe('The remote sent a corrupt pack: an object does not inflate');
  });
});
