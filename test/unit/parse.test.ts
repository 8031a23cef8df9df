import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors.ts';
import {
  decodePathParameter,
  headerValue,
  MAX_BODY_BYTES,
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

  it('refuses a multipart body without a boundary with a 400 error-body', async () => {
    const error = await rejection(
      parseRequest({ headers: { 'content-type': 'multipart/form-data' }, body: 'x' }),
    );
    expect({ status: error.status, body: error.body }).toEqual({
      status: 400,
      body: { error: 'The multipart body could not be read' },
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
