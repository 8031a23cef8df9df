/**
 * No upload can script the API's origin: through the local gateway, a non-admin user's uploads to a
 * public project are served to anyone with the type their bytes show (an image in place) or as
 * application/octet-stream, an attachment, whatever name and type the client declared; every file
 * answer (uploads, avatars, raw snippets) carries nosniff and a sandboxing Content-Security-Policy.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiUrl, createUser, must, type TestUser, unique } from '../support/api.ts';

interface UploadBody {
  alt: string;
  url: string;
  markdown: string;
}

const CSP = "sandbox; default-src 'none'";

/** A whole 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.domain)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"/>');
const XHTML = Buffer.from(
  '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
);

let user: TestUser;
let projectId: number;

beforeAll(async () => {
  user = await createUser();
  const project = await must(
    api<{ id: number }>('POST', '/projects', {
      token: user.token,
      json: { name: unique('Content types'), visibility: 'public' },
    }),
    201,
    'project create',
  );
  projectId = project.id;
});

async function upload(name: string, content: Buffer, type: string): Promise<UploadBody> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type }), name);
  return must(
    api<UploadBody>('POST', `/projects/${projectId}/uploads`, { token: user.token, body: form }),
    201,
    `upload ${name}`,
  );
}

/** GET a URL anonymously, as anyone who follows a link to it would. */
async function fetchAnonymously(url: string) {
  const response = await fetch(url, { redirect: 'manual' });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    nosniff: response.headers.get('x-content-type-options'),
    csp: response.headers.get('content-security-policy'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const uploadUrl = (url: string) => `${apiUrl()}/projects/${projectId}${url}`;

describe('GET /projects/:id/uploads/:secret/:filename: the server decides the type', () => {
  it.each([
    ['HTML declared text/html, named x.png', 'x.png', 'text/html', HTML],
    ['HTML declared text/html, named as itself', 'page.html', 'text/html', HTML],
    ['SVG declared image/svg+xml, named a.jpg', 'a.jpg', 'image/svg+xml', SVG],
    ['SVG declared image/svg+xml, named as itself', 'logo.svg', 'image/svg+xml', SVG],
    ['XHTML declared application/xhtml+xml, named b.webp', 'b.webp', 'application/xhtml+xml', XHTML],
  ])(
    '%s → 200 application/octet-stream, an attachment, never rendered',
    async (_what, name, type, content) => {
      const uploaded = await upload(name, content, type);
      const served = await fetchAnonymously(uploadUrl(uploaded.url));
      expect(served).toEqual({
        status: 200,
        type: 'application/octet-stream',
        disposition: `attachment; filename="${name}"; filename*=UTF-8''${name}`,
        nosniff: 'nosniff',
        csp: CSP,
        bytes: content,
      });
    },
  );

  it('a real PNG (whatever was declared) → 200 image/png in place, with the same two headers', async () => {
    const uploaded = await upload('chart.png', PNG, 'text/html');
    expect(uploaded.markdown).toBe(`![chart](${uploaded.url})`);
    const served = await fetchAnonymously(uploadUrl(uploaded.url));
    expect(served).toEqual({
      status: 200,
      type: 'image/png',
      disposition: `inline; filename="chart.png"; filename*=UTF-8''chart.png`,
      nosniff: 'nosniff',
      csp: CSP,
      bytes: PNG,
    });
  });

  it('the Markdown still follows the name, as GitLab’s does', async () => {
    const svg = await upload('logo.svg', SVG, 'image/svg+xml');
    expect(svg.markdown).toBe(`![logo.svg](${svg.url})`);
    const html = await upload('page.html', HTML, 'text/html');
    expect(html.markdown).toBe(`[page.html](${html.url})`);
  });
});

describe('other file answers carry the same headers', () => {
  it('GET /projects/:id/snippets/:snippet_id/raw → UTF-8 text/plain, nosniff, sandboxed', async () => {
    const content = '<html><script>alert(document.domain)</script></html>';
    const snippet = await must(
      api<{ id: number }>('POST', `/projects/${projectId}/snippets`, {
        token: user.token,
        json: { title: 'Page', file_name: 'page.html', content, visibility: 'public' },
      }),
      201,
      'snippet create',
    );
    const raw = await api('GET', `/projects/${projectId}/snippets/${snippet.id}/raw`, { token: user.token });
    expect(raw.status).toBe(200);
    expect(raw.text).toBe(content);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('content-security-policy')).toBe(CSP);
  });

  it('a project avatar, at avatar_url and GET /projects/:id/avatar → image/png, nosniff, sandboxed', async () => {
    const body = new FormData();
    body.append('avatar', new Blob([new Uint8Array(PNG)], { type: 'text/html' }), 'dk.png');
    const updated = await must(
      api<{ avatar_url: string | null }>('PUT', `/projects/${projectId}`, { token: user.token, body }),
      200,
      'avatar update',
    );
    expect(updated.avatar_url).toMatch(new RegExp(`/uploads/-/system/project/avatar/${projectId}/dk\\.png$`));

    const shown = await fetchAnonymously(String(updated.avatar_url));
    expect(shown).toEqual({
      status: 200,
      type: 'image/png',
      disposition: `inline; filename="dk.png"; filename*=UTF-8''dk.png`,
      nosniff: 'nosniff',
      csp: CSP,
      bytes: PNG,
    });
    const downloaded = await fetchAnonymously(`${apiUrl()}/projects/${projectId}/avatar`);
    expect(downloaded).toEqual({
      status: 200,
      type: 'image/png',
      disposition: `attachment; filename="dk.png"; filename*=UTF-8''dk.png`,
      nosniff: 'nosniff',
      csp: CSP,
      bytes: PNG,
    });
  });
});
