/** What a handler returns: a value (status chosen by method) or one of these replies. */
import { type PageRequest, slicePage } from '#domain/pagination.ts';
import type { FileDownload } from '#domain/uploads.ts';

export type Reply =
  | { kind: 'body'; status: number; body: unknown }
  | { kind: 'empty'; status: number }
  | { kind: 'page'; items: unknown[]; total: number | undefined; request: PageRequest }
  | { kind: 'raw'; status: number; body: Buffer; contentType: string; headers?: Record<string, string> };

const REPLY = Symbol.for('gitlab-api.reply');
type Tagged = Reply & { [REPLY]: true };
const tag = (reply: Reply): Tagged => Object.assign(reply, { [REPLY]: true as const });

export const reply = {
  ok: (body: unknown) => tag({ kind: 'body', status: 200, body }),
  created: (body: unknown) => tag({ kind: 'body', status: 201, body }),
  /** 202 with GitLab's `{"message":"202 Accepted"}`. */
  accepted: () => tag({ kind: 'body', status: 202, body: { message: '202 Accepted' } }),
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
   * A stored file: its bytes with its headers, or, when it is too large to answer with, a redirect
   * to a URL that serves it with the same headers.
   */
  file: (file: FileDownload) =>
    'location' in file ? redirect(file.location) : reply.raw(file.body, file.contentType, file.headers),
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
