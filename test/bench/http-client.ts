/**
 * The API as B9 and B10 call it: JSON over loopback to the local gateway, each answer with its
 * status, headers, parsed body and the time from sending to the last byte read.
 */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  ms: number;
}

export interface CallOptions {
  /** A PRIVATE-TOKEN; none for an anonymous call. */
  token?: string;
  json?: unknown;
  /** A ready body (multipart), sent as is. */
  body?: FormData;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export async function call<T = unknown>(
  apiUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers['PRIVATE-TOKEN'] = options.token;
  let body: string | FormData | undefined = options.body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const sent = performance.now();
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  });
  const text = await response.text();
  const ms = performance.now() - sent;
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text, ms };
}

/** The body of an answer that must have `status`; otherwise an error naming `what` and the answer. */
export async function must<T>(answer: Promise<Answer<T>>, status: number, what: string): Promise<T> {
  const settled = await answer;
  if (settled.status !== status) {
    throw new Error(`${what}: ${settled.status} (expected ${status}) ${settled.text.slice(0, 300)}`);
  }
  return settled.body;
}

/** Every item of a paged list (per_page=100) and its X-Total as the first page gave it. */
export async function allPages<T>(
  apiUrl: string,
  token: string,
  path: string,
): Promise<{ items: T[]; total: number }> {
  const items: T[] = [];
  let total = Number.NaN;
  for (let page = 1; page <= 1000; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await call<T[]>(apiUrl, 'GET', `${path}${separator}per_page=100&page=${page}`, { token });
    if (answer.status !== 200) throw new Error(`GET ${path} page ${page}: ${answer.status} ${answer.text}`);
    if (page === 1) total = Number(answer.headers.get('x-total') ?? Number.NaN);
    items.push(...answer.body);
    if (answer.body.length < 100) break;
  }
  return { items, total };
}

/** Runs `task` over `inputs`, at most `limit` at a time, answers in input order. */
export async function mapLimit<I, O>(
  inputs: readonly I[],
  limit: number,
  task: (input: I, index: number) => Promise<O>,
): Promise<O[]> {
  const out: O[] = new Array(inputs.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < inputs.length; index = next++) {
      out[index] = await task(inputs[index] as I, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return out;
}
