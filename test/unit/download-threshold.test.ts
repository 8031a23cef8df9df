/**
 * Which downloads are answered with their bytes: those whose base64 body, with room for headers and
 * the response's JSON, fits Lambda's 6 MiB synchronous response; the rest redirect.
 */
import { describe, expect, it } from 'vitest';
import { answeredDirectly, DIRECT_DOWNLOAD_MAX_BYTES } from '#blob/downloads.ts';

const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
const base64Length = (bytes: number) => 4 * Math.ceil(bytes / 3);

describe('the direct-download threshold', () => {
  it('answers files up to 4 MiB with their bytes, and redirects anything larger', () => {
    expect(DIRECT_DOWNLOAD_MAX_BYTES).toBe(4_194_304);
    expect(answeredDirectly(0)).toBe(true);
    expect(answeredDirectly(200 * 1024)).toBe(true); // the largest avatar
    expect(answeredDirectly(DIRECT_DOWNLOAD_MAX_BYTES)).toBe(true);
    expect(answeredDirectly(DIRECT_DOWNLOAD_MAX_BYTES + 1)).toBe(false);
    expect(answeredDirectly(6 * 1024 * 1024)).toBe(false);
  });

  it('leaves over 512 KiB of the 6 MiB response for headers and envelope once base64-encoded', () => {
    expect(base64Length(DIRECT_DOWNLOAD_MAX_BYTES)).toBe(5_592_408);
    expect(LAMBDA_RESPONSE_LIMIT - base64Length(DIRECT_DOWNLOAD_MAX_BYTES)).toBeGreaterThan(512 * 1024);
  });
});
