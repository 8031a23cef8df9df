/** What a handler returns: a value (status chosen by method) or one of these replies. */
import { type PageRequest, slicePage } from '#domain/pagination.ts';
import type { FileDownload } from '#domain/uploads.ts';

export type Reply =
  | { kind: 'body'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'empty'; status: number }
  | { kind: 'page'; items: unknown[]; total: number | undefined; request: PageRequest }
  | { kind: 'raw'; status: number; body: Buffer; contentType: string; headers?: Record<string, string> };

/**
 * What every answer with a file's bytes carries (uploads, avatars, raw snippets): the type it is
 * sent with is final (no sniffing), and should a browser render it anyway, as a sandboxed document
 * that runs no script and loads nothing, so no file acts with this origin's authority.
 */
export const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'",
} as const;

const REPLY = Symbol.for('gitlab-api.reply');
type Tagged = Reply & { [REPLY]: true };
const tag = (reply: Reply): Tagged => Object.assign(reply, { [REPLY]: true as const });

export const reply = {
  ok: (body: unknown) => tag({ kind: 'body', status: 200, body }),
  /** 200 with a JSON body and headers of the route's own (a file's `X-Gitlab-*` facts). */
  okWithHeaders: (body: unknown, headers: Record<string, string>) =>
    tag({ kind: 'body', status: 200, body, headers }),
  created: (body: unknown) => tag({ kind: 'body', status: 201, body }),
  /** 202 with GitLab's `{"message":"202 Accepted"}`. */
  accepted: () => tag({ kind: 'body', status: 202, body: { message: '202 Accepted' } }),
  /** 202 with a body of the route's own. */
  acceptedWith: (body: unknown) => tag({ kind: 'body', status: 202, body }),
  /** 202 whose body is the bare number, as Grape renders an endpoint ending in `status 202`. */
  acceptedStatus: () => tag({ kind: 'body', status: 202, body: 202 }),
  noContent: () => tag({ kind: 'empty', status: 204 }),
  notModified: () => tag({ kind: 'empty', status: 304 }),
  page: (items: unknown[], total: number | undefined, request: PageRequest) =>
    tag({ kind: 'page', items, total, request }),
  /** The requested page of a whole list held in memory. */
  pageOf: (all: unknown[], request: PageRequest) => {
    const { items, total } = slicePage(all, request);
    return tag({ kind: 'page', items, total, request });
  },
  raw: (body: Buffer, contentType: string, headers?: Record<string, string>) =>
    tag({ kind: 'raw', status: 200, body, contentType, headers }),
  /**
   * A stored file: its bytes with its headers and FILE_HEADERS, or, when it is too large to answer
   * with, a redirect to a URL of the bucket's (another origin) that serves it with the same type and
   * disposition.
   */
  file: (file: FileDownload) =>
    'location' in file
      ? redirect(file.location)
      : reply.raw(file.body, file.contentType, { ...file.headers, ...FILE_HEADERS }),
  /** A file of the service's own (the default avatar): FILE_HEADERS, cacheable by anyone for a day. */
  asset: (body: Buffer, contentType: string) =>
    reply.raw(body, contentType, { ...FILE_HEADERS, 'Cache-Control': 'public, max-age=86400' }),
  /** Text as a file (a raw snippet): UTF-8 plain text, with FILE_HEADERS. */
  text: (content: string) =>
    reply.raw(Buffer.from(content, 'utf8'), 'text/plain; charset=utf-8', { ...FILE_HEADERS }),
};

/**
 * 302 as Grape's `redirect` answers it (GitLab's downloads from object storage): the URL in
 * Location and in a plain-text sentence. Never stored by a cache: the URL expires.
 */
const redirect = (location: string) =>
  tag({
    kind: 'raw',
    status: 302,
    body: Buffer.from(`This resource has been moved temporarily to ${location}.`),
    contentType: 'text/plain',
    headers: { Location: location, 'Cache-Control': 'no-store' },
  });

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && REPLY in value;
}
