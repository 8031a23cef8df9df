import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import {
  decodePathParameter,
  headerValue,
  MAX_BODY_BYTES,
  MAX_MULTIPART_FILES,
  MAX_MULTIPART_PARTS,
  parseQueryString,
  parseRequest,
  type RawRequest,
} from '#http/parse.ts';

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  return caught as ApiError;
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('parseQueryString()', () => {
  it('reads plain pairs', () => {
    expect(plain(parseQueryString('name=demo&visibility=private'))).toEqual({
      name: 'demo',
      visibility: 'private',
    });
  });

  it('gives an empty map for nothing', () => {
    expect(plain(parseQueryString(''))).toEqual({});
    expect(plain(parseQueryString(undefined))).toEqual({});
    expect(plain(parseQueryString('&&'))).toEqual({});
  });

  it('reads a key without "=" as an empty string', () => {
    expect(plain(parseQueryString('simple&owned='))).toEqual({ simple: '', owned: '' });
  });

  it('collects a[]=x pairs into an array', () => {
    expect(plain(parseQueryString('scopes[]=api&scopes[]=read_user'))).toEqual({
      scopes: ['api', 'read_user'],
    });
    expect(plain(parseQueryString('scopes%5B%5D=api'))).toEqual({ scopes: ['api'] });
  });

  it('makes a key repeated without brackets an array', () => {
    expect(plain(parseQueryString('scopes=api&scopes=read_user&scopes=sudo'))).toEqual({
      scopes: ['api', 'read_user', 'sudo'],
    });
  });

  it('mixes a plain key followed by a[] into one array', () => {
    expect(plain(parseQueryString('scopes=api&scopes[]=sudo'))).toEqual({ scopes: ['api', 'sudo'] });
  });

  it('reads a[k]=v pairs into a map', () => {
    expect(plain(parseQueryString('custom_attributes[color]=red&custom_attributes[size]=L'))).toEqual({
      custom_attributes: { color: 'red', size: 'L' },
    });
    expect(plain(parseQueryString('custom_attributes%5Bcolor%5D=red'))).toEqual({
      custom_attributes: { color: 'red' },
    });
  });

  it("decodes '+' as a space and percent-escapes", () => {
    expect(plain(parseQueryString('search=hello+world&path=group%2Fsub%2Fproject&q=a%2Bb'))).toEqual({
      search: 'hello world',
      path: 'group/sub/project',
      q: 'a+b',
    });
    expect(plain(parseQueryString('name=%C3%A9t%C3%A9'))).toEqual({ name: 'été' });
  });

  it('keeps badly percent-encoded text as it came instead of failing', () => {
    expect(plain(parseQueryString('search=100%&name=a%ZZb+c&%E0%A4%A=x'))).toEqual({
      search: '100%',
      name: 'a%ZZb c',
      '%E0%A4%A': 'x',
    });
  });

  it('skips empty keys and __proto__', () => {
    const result = parseQueryString('=x&__proto__=polluted&ok=1');
    expect(plain(result)).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('treats a key that starts with a bracket as a plain key', () => {
    expect(plain(parseQueryString('[a]=1'))).toEqual({ '[a]': '1' });
  });
});

describe('headerValue()', () => {
  it('finds headers whatever their case', () => {
    expect(headerValue({ 'Private-Token': 'abc' }, 'private-token')).toBe('abc');
    expect(headerValue({ 'content-type': 'text/plain' }, 'Content-Type')).toBe('text/plain');
    expect(headerValue({}, 'host')).toBeUndefined();
    expect(headerValue(undefined, 'host')).toBeUndefined();
  });
});

describe('decodePathParameter()', () => {
  it('decodes URL-encoded full paths and keeps ids', () => {
    expect(decodePathParameter('group%2Fsub%2Fproject')).toBe('group/sub/project');
    expect(decodePathParameter('42')).toBe('42');
    expect(decodePathParameter('bad%E0%A4%A')).toBe('bad%E0%A4%A');
  });
});

describe('parseRequest()', () => {
  it('reads the query string alone', async () => {
    expect(plain(await parseRequest({ rawQueryString: 'a=1&b[]=2' }))).toEqual({
      params: { a: '1', b: ['2'] },
      files: {},
    });
  });

  it('merges a JSON body over the query', async () => {
    const event: RawRequest = {
      rawQueryString: 'name=from-query&visibility=private',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ name: 'from-body', archived: true, scopes: ['api'], attrs: { a: 1 } }),
    };
    expect(plain(await parseRequest(event))).toEqual({
      params: { name: 'from-body', visibility: 'private', archived: true, scopes: ['api'], attrs: { a: 1 } },
      files: {},
    });
  });

  it('reads a body without a content type as JSON', async () => {
    expect(plain(await parseRequest({ body: '{"name":"x"}' }))).toEqual({ params: { name: 'x' }, files: {} });
  });

  it('reads a vendor JSON type', async () => {
    expect(
      plain(
        await parseRequest({ headers: { 'Content-Type': 'application/vnd.api+json' }, body: '{"name":"x"}' }),
      ),
    ).toEqual({ params: { name: 'x' }, files: {} });
  });

  it('reads an empty or blank JSON body as no params', async () => {
    expect(
      plain(await parseRequest({ headers: { 'content-type': 'application/json' }, body: '  ' })),
    ).toEqual({
      params: {},
      files: {},
    });
    expect(plain(await parseRequest({ headers: { 'content-type': 'application/json' }, body: '' }))).toEqual({
      params: {},
      files: {},
    });
  });

  it('merges a form-urlencoded body over the query', async () => {
    const event: RawRequest = {
      rawQueryString: 'name=q&path=q-path',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=form+name&scopes%5B%5D=api&scopes%5B%5D=sudo&custom_attributes[k]=v',
    };
    expect(plain(await parseRequest(event))).toEqual({
      params: { name: 'form name', path: 'q-path', scopes: ['api', 'sudo'], custom_attributes: { k: 'v' } },
      files: {},
    });
  });

  it('reads a multipart body: fields as params, files apart', async () => {
    const boundary = 'XyZ0123';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="name"',
      '',
      'multipart name',
      `--${boundary}`,
      'Content-Disposition: form-data; name="tags[]"',
      '',
      'one',
      `--${boundary}`,
      'Content-Disposition: form-data; name="tags[]"',
      '',
      'two',
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="notes.txt"',
      'Content-Type: text/plain',
      '',
      'file contents',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const result = await parseRequest({
      rawQueryString: 'name=query&id=9',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Buffer.from(body).toString('base64'),
      isBase64Encoded: true,
    });
    expect(plain(result.params)).toEqual({ name: 'multipart name', id: '9', tags: ['one', 'two'] });
    expect(result.files).toEqual({
      file: { filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('file contents') },
    });
  });

  it("leaves a GET's or a HEAD's multipart body unread, as the GET-only bundles do", async () => {
    const boundary = 'XyZ0123';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="name"',
      '',
      'from the body',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    for (const method of ['GET', 'HEAD']) {
      const result = await parseRequest({
        rawQueryString: 'id=9',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        requestContext: { http: { method } },
      });
      expect(plain(result.params)).toEqual({ id: '9' });
      expect(result.files).toEqual({});
    }
    const posted = await parseRequest({
      rawQueryString: 'id=9',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      requestContext: { http: { method: 'POST' } },
    });
    expect(plain(posted.params)).toEqual({ id: '9', name: 'from the body' });
  });

  it('refuses a multipart body without a boundary with a 400 error-body', async () => {
    const error = await rejection(
      parseRequest({ headers: { 'content-type': 'multipart/form-data' }, body: 'x' }),
    );
    expect({ status: error.status, body: error.body }).toEqual({
      status: 400,
      body: { message: '400 Bad request - The multipart body could not be read' },
    });
  });

  it('decodes a base64 JSON body', async () => {
    const event: RawRequest = {
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ name: 'été' })).toString('base64'),
      isBase64Encoded: true,
    };
    expect(plain(await parseRequest(event))).toEqual({ params: { name: 'été' }, files: {} });
  });

  it('puts path parameters over body and query, decoded', async () => {
    const event: RawRequest = {
      rawQueryString: 'id=1&x=q',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 2, y: 'b' }),
      pathParameters: { id: 'group%2Fproject', other: undefined },
    };
    expect(plain(await parseRequest(event))).toEqual({
      params: { id: 'group/project', x: 'q', y: 'b' },
      files: {},
    });
  });

  it('ignores a body of an unknown type', async () => {
    expect(
      plain(
        await parseRequest({
          rawQueryString: 'a=1',
          headers: { 'content-type': 'text/plain' },
          body: 'hello',
        }),
      ),
    ).toEqual({ params: { a: '1' }, files: {} });
  });

  it('refuses malformed JSON with a 400 error-body', async () => {
    const error = await rejection(
      parseRequest({ headers: { 'content-type': 'application/json' }, body: '{"name": "x",' }),
    );
    expect({ status: error.status, body: error.body }).toEqual({
      status: 400,
      body: { error: 'The request body is not valid JSON' },
    });
  });

  it.each([['[1,2]'], ['"text"'], ['42'], ['null']])(
    'refuses the JSON body %s that is not an object',
    async (body) => {
      const error = await rejection(parseRequest({ headers: { 'content-type': 'application/json' }, body }));
      expect({ status: error.status, body: error.body }).toEqual({
        status: 400,
        body: { error: 'The request body must be a JSON object' },
      });
    },
  );

  it('refuses a body over 6 MB with 413', async () => {
    const error = await rejection(
      parseRequest({ headers: { 'content-type': 'application/json' }, body: 'x'.repeat(MAX_BODY_BYTES + 1) }),
    );
    expect({ status: error.status, body: error.body }).toEqual({
      status: 413,
      body: { message: '413 Request Entity Too Large' },
    });
  });

  it('measures a base64 body by its decoded size', async () => {
    const decoded = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
    const error = await rejection(
      parseRequest({
        headers: { 'content-type': 'text/plain' },
        body: decoded.toString('base64'),
        isBase64Encoded: true,
      }),
    );
    expect(error.status).toBe(413);
    const atLimit = JSON.stringify({ pad: 'y'.repeat(MAX_BODY_BYTES - 10) });
    expect(atLimit.length).toBe(MAX_BODY_BYTES);
    const result = await parseRequest({ headers: { 'content-type': 'application/json' }, body: atLimit });
    expect((result.params.pad as string).length).toBe(MAX_BODY_BYTES - 10);
  });
});

describe('parseRequest() with a multipart body that is not whole', () => {
  const multipart = (body: string | Buffer, boundary = 'xx'): RawRequest => ({
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
  });
  const part = (disposition: string, content: string, extra: string[] = [], boundary = 'xx') =>
    [`--${boundary}`, `Content-Disposition: ${disposition}`, ...extra, '', content].join('\r\n');
  const whole = (parts: string[], boundary = 'xx') => `${parts.join('\r\n')}\r\n--${boundary}--\r\n`;
  const unreadable = {
    status: 400,
    body: { message: '400 Bad request - The multipart body could not be read' },
  };
  const outcome = (error: ApiError) => ({ status: error.status, body: error.body });

  it('refuses a file part without its closing boundary with 400, whoever sends it', async () => {
    const error = await rejection(
      parseRequest(multipart('--xx\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc')),
    );
    expect(outcome(error)).toEqual(unreadable);
  });

  it('refuses every truncation of a valid body, and reads the body once its closing boundary is whole', async () => {
    const body = whole([
      part('form-data; name="title"', 'a title'),
      part('form-data; name="file"; filename="a.txt"', 'hello', ['Content-Type: text/plain']),
    ]);
    // The trailing CRLF after `--xx--` is epilogue: the body is whole without it.
    const wholeFrom = body.length - 2;
    for (let length = 1; length < body.length; length++) {
      const request = parseRequest(multipart(body.slice(0, length)));
      if (length >= wholeFrom) {
        const { files } = await request;
        expect(files.file?.content.toString()).toBe('hello');
      } else {
        expect(outcome(await rejection(request)), `length ${length}`).toEqual(unreadable);
      }
    }
  });

  it('refuses a boundary over 70 characters, an empty one, a missing one and one the body does not use', async () => {
    const body = (boundary: string) => whole([part('form-data; name="a"', 'b', [], boundary)], boundary);
    const long = 'b'.repeat(71);
    expect(outcome(await rejection(parseRequest(multipart(body(long), long))))).toEqual(unreadable);
    expect(outcome(await rejection(parseRequest(multipart(body('xx'), ''))))).toEqual(unreadable);
    expect(outcome(await rejection(parseRequest(multipart(body('xx'), '""'))))).toEqual(unreadable);
    expect(outcome(await rejection(parseRequest(multipart(body('yy'), 'xx'))))).toEqual(unreadable);
    const withoutParam = {
      headers: { 'content-type': 'multipart/form-data; charset=utf-8' },
      body: body('xx'),
    };
    expect(outcome(await rejection(parseRequest(withoutParam)))).toEqual(unreadable);
    const longest = 'b'.repeat(70);
    expect(plain((await parseRequest(multipart(body(longest), `"${longest}"`))).params)).toEqual({ a: 'b' });
  });

  it('refuses part headers over 16 KB, or none at all, with 400', async () => {
    const huge = `X-Pad: ${'p'.repeat(17 * 1024)}`;
    const body = whole([part('form-data; name="file"; filename="a"', 'abc', [huge])]);
    expect(outcome(await rejection(parseRequest(multipart(body))))).toEqual(unreadable);
    // busboy takes a part without headers (which RFC 2046 allows) for a malformed one.
    const headerless = whole(['--xx\r\n', part('form-data; name="file"; filename="a"', 'abc')]);
    expect(outcome(await rejection(parseRequest(multipart(headerless))))).toEqual(unreadable);
  });

  it('drops parts without a name or a disposition, and a file input sent with nothing chosen', async () => {
    const body = whole([
      part('form-data', 'nameless field'),
      part('form-data; filename="nameless.txt"', 'nameless file'),
      part('form-data; name=""', 'empty name'),
      part('form-data; name="__proto__"', 'polluting'),
      ['--xx', 'Content-Type: text/plain', '', 'no disposition'].join('\r\n'),
      part('form-data; name="file"; filename=""', '', ['Content-Type: application/octet-stream']),
      part('form-data; name="kept"', ''),
    ]);
    const result = await parseRequest(multipart(body));
    expect(plain(result.params)).toEqual({ kept: '' });
    expect(result.files).toEqual({});
  });

  it('reads a zero-length file with a name, nested multipart/mixed parts and repeated fields', async () => {
    const nested = ['--inner', 'Content-Type: text/plain', '', 'x', '--inner--'].join('\r\n');
    const body = whole([
      part('form-data; name="file"; filename="empty.txt"', '', ['Content-Type: text/plain']),
      part('form-data; name="mixed"', nested, ['Content-Type: multipart/mixed; boundary=inner']),
      part('form-data; name="attached"; filename="a.eml"', nested, [
        'Content-Type: multipart/mixed; boundary=inner',
      ]),
      part(`form-data; name="${'n'.repeat(8000)}"`, 'long name'),
      part('form-data; name="tag"', 'one'),
      part('form-data; name="tag"', 'two'),
    ]);
    const result = await parseRequest(multipart(body));
    expect(plain(result.params)).toEqual({
      mixed: nested,
      ['n'.repeat(8000)]: 'long name',
      tag: ['one', 'two'],
    });
    expect(result.files.file).toEqual({
      filename: 'empty.txt',
      contentType: 'text/plain',
      content: Buffer.alloc(0),
    });
    expect(result.files.attached?.content.toString()).toBe(nested);
  });

  it(`refuses more than ${MAX_MULTIPART_PARTS} parts or ${MAX_MULTIPART_FILES} files with 400`, async () => {
    const tooMany = {
      status: 400,
      body: { message: '400 Bad request - The multipart body has too many parts' },
    };
    const fields = (count: number) => Array.from({ length: count }, () => part('form-data; name="a[]"', 'x'));
    expect((await parseRequest(multipart(whole(fields(MAX_MULTIPART_PARTS))))).params.a).toHaveLength(
      MAX_MULTIPART_PARTS,
    );
    expect(outcome(await rejection(parseRequest(multipart(whole(fields(MAX_MULTIPART_PARTS + 1))))))).toEqual(
      tooMany,
    );
    const unnamed = Array.from({ length: MAX_MULTIPART_PARTS + 1 }, () => part('x', 'x'));
    expect(outcome(await rejection(parseRequest(multipart(whole(unnamed)))))).toEqual(tooMany);
    const files = Array.from({ length: MAX_MULTIPART_FILES + 1 }, (_, i) =>
      part(`form-data; name="f${i}"; filename="f${i}"`, 'x'),
    );
    expect(outcome(await rejection(parseRequest(multipart(whole(files)))))).toEqual(tooMany);
    expect(Object.keys((await parseRequest(multipart(whole(files.slice(1))))).files)).toHaveLength(
      MAX_MULTIPART_FILES,
    );
  });
});
