/** Why a call did not produce a usable answer. Business errors (HTTP 200 with an error inside) are not these. */
export type ApiErrorKind =
  /** The request never got an answer: offline, DNS, connection refused, CORS, aborted. */
  | 'network'
  /** The server answered with a status outside 2xx. */
  | 'http'
  /** The server answered 2xx but the body is not JSON. */
  | 'parse';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly kind: ApiErrorKind,
    readonly path: string,
    /** HTTP status, or null when there was no answer. */
    readonly status: number | null,
    /** The parsed body of a non-2xx answer, when it was JSON. */
    readonly body: unknown = null,
    options?: { cause?: unknown },
  ) {
    super(kind === 'http' ? `POST ${path} answered ${status}` : `POST ${path} failed (${kind})`, options);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface PostOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * POSTs `body` as JSON and returns the parsed JSON answer, unchecked: each call's module narrows it.
 * Throws ApiError for a network failure, a non-2xx status or a 2xx body that is not JSON.
 */
export async function postJson(path: string, body: unknown, options: PostOptions = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...options.headers },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (cause) {
    throw new ApiError('network', path, null, null, { cause });
  }

  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    throw new ApiError('network', path, response.status, null, { cause });
  }

  const parsed = parseJson(text);
  if (!response.ok) throw new ApiError('http', path, response.status, parsed.ok ? parsed.value : null);
  if (!parsed.ok) throw new ApiError('parse', path, response.status);
  return parsed.value;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
