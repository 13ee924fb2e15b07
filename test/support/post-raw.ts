/**
 * The one hand-written GraphQL POST of the tests, for what a typed document (`svc.gql`) cannot
 * send: a query written inline, a body that is not JSON, the headers a test sets, an answer read
 * as text. Sent to an app's `fetch` (as `svc.yoga`, no socket) or to a URL over real HTTP.
 */

/** An app (its `fetch`, at http://titlegraph.test/graphql) or the URL of a served /graphql. */
export type PostTarget = string | { fetch(url: string, init: RequestInit): Response | Promise<Response> };

export interface RawBody<R = any> {
  data?: R;
  errors?: { message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, any>;
}

export interface RawAnswer<R = any> {
  status: number;
  headers: Headers;
  /** The body as it came. */
  text: string;
  /** The body parsed, when its content type is JSON; `{}` otherwise. */
  body: RawBody<R>;
}

const DEFAULT_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/graphql-response+json',
  authorization: 'Bearer dev-key-a',
};

/**
 * POSTs `body` (JSON-encoded, unless it is a string, sent as it is) as dev-key-a, asking for
 * application/graphql-response+json. `headers` replace those defaults; a header given as null is
 * not sent (`{ authorization: null }`: no credentials). `R` is the shape of `data`, when a test
 * knows it.
 */
export async function postRaw<R = any>(
  target: PostTarget,
  body: unknown,
  headers: Record<string, string | null> = {},
): Promise<RawAnswer<R>> {
  const sent = Object.fromEntries(
    Object.entries({ ...DEFAULT_HEADERS, ...headers }).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  const init: RequestInit = { method: 'POST', headers: sent, body: typeof body === 'string' ? body : JSON.stringify(body) };
  const response = await (typeof target === 'string' ? fetch(target, init) : target.fetch('http://titlegraph.test/graphql', init));
  const text = await response.text();
  const json = /[/+]json\b/.test(response.headers.get('content-type') ?? '');
  return { status: response.status, headers: response.headers, text, body: json ? (JSON.parse(text) as RawBody<R>) : {} };
}
