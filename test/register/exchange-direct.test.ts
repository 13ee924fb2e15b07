/**
 * exchange() driven directly, against a small scripted HTTP server (real sockets), for what the
 * emulator cannot show: the headers a call sends, credentials that fail in odd ways, a reader
 * that throws, the pool a route uses, and how the caller's signal, the deadline and the back-off
 * wait interact. The emulator-based tests (exchange.test.ts, the fault matrix) cover the rest.
 */
import { getEventListeners } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { RegisterError, RegisterTransport, type RegisterCallEvent } from '../../src/register/client';
import type { AttemptGate, AuthProvider, ExchangeSpec } from '../../src/register/client/call-spec';
import { exchange } from '../../src/register/client/exchange';
import { type RawResponse, readJson } from '../../src/register/client/responses';
import { ROUTES } from '../../src/register/contract/routes';

type Handler = (req: { method: string; url: string; headers: IncomingHttpHeaders; body: string }, res: ServerResponse) => void;

let server: Server;
let origin: string;
let script: Handler[];
let seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[];
let transports: RegisterTransport[];
let events: RegisterCallEvent[];

beforeEach(async () => {
  script = [];
  seen = [];
  transports = [];
  events = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(request);
      const next = script.shift() ?? ok({ data: { ok: true } });
      next(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  await Promise.all(transports.map((t) => t.close()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ok =
  (json: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(json));
  };
const status =
  (code: number, json?: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(json === undefined ? '' : JSON.stringify(json));
  };
const hang: Handler = () => undefined;

function transport(options: Partial<ConstructorParameters<typeof RegisterTransport>[0]> = {}): RegisterTransport {
  const t = new RegisterTransport({
    baseUrl: `${origin}/v1`,
    timeouts: { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000, deadlineMs: 2_000 },
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    breaker: { failureThreshold: 100, openMs: 1_000 },
    onCall: (e) => events.push(e),
    ...options,
  });
  transports.push(t);
  return t;
}

const bearer = (token = 'tok-1'): AuthProvider & { invalidated: string[] } => {
  const invalidated: string[] = [];
  return {
    invalidated,
    authorize: async () => ({ header: `Bearer ${token}`, token }),
    invalidate: (t) => {
      invalidated.push(t);
    },
  };
};

/** A quota gate that lets every attempt go, with the steps a test gives it instead. */
const gate = (steps: Partial<AttemptGate> = {}): AttemptGate => ({
  refuseIfHeld: async () => undefined,
  admitNow: () => false,
  admit: async () => undefined,
  settled: () => undefined,
  ...steps,
});

function spec<T = unknown>(overrides: Partial<ExchangeSpec<T>> = {}): ExchangeSpec<T> {
  return {
    route: ROUTES.titleSummary,
    params: { titleNumber: 'MID1' },
    auth: bearer(),
    tenant: 'client-t',
    sensitive: () => [],
    read: async (res) => (await res.body.json()) as T,
    ...overrides,
  };
}

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
};

describe('what a call sends', () => {
  test('a GET: accept JSON, the bearer token, the request id; no content type, no body', async () => {
    await exchange(transport(), spec({ opts: { requestId: 'req-42' } }));
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url).toBe('/v1/titles/MID1/summary');
    expect(seen[0]!.headers).toMatchObject({ accept: 'application/json', authorization: 'Bearer tok-1', 'x-request-id': 'req-42' });
    expect(seen[0]!.headers['content-type']).toBeUndefined();
    expect(seen[0]!.body).toBe('');
  });

  test('a POST with a JSON body says so; a given accept header is kept; no request id, no header', async () => {
    await exchange(
      transport(),
      spec({ route: ROUTES.createCase, params: {}, json: { reference: 'x' }, accept: 'application/pdf', read: async () => 'done' }),
    );
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/pdf' });
    expect(seen[0]!.headers['x-request-id']).toBeUndefined();
    expect(JSON.parse(seen[0]!.body)).toEqual({ reference: 'x' });
  });

  test("an event per attempt names the tenant, route, request id, a plausible duration and the register's Retry-After", async () => {
    script.push(status(503, { code: 'INTERNAL_ERROR', message: 'busy' }, { 'retry-after': '0' }));
    const started = performance.now();
    await exchange(transport(), spec({ opts: { requestId: 'req-7' } }));
    const whole = performance.now() - started;
    expect(events.map((e) => [e.route, e.status, e.outcome, e.attempt, e.tenant, e.requestId, e.retryAfterSeconds])).toEqual([
      ['titleSummary', 503, 'http_error', 1, 'client-t', 'req-7', 0],
      ['titleSummary', 200, 'ok', 2, 'client-t', 'req-7', undefined],
    ]);
    // Milliseconds of its own attempt: within the whole exchange, and the two together no more than it.
    for (const e of events) {
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
      expect(e.durationMs).toBeLessThanOrEqual(whole);
    }
    expect(events[0]!.durationMs + events[1]!.durationMs).toBeLessThanOrEqual(whole);
  });

  test('300 is not a success either', async () => {
    script.push(status(300), status(300), status(300));
    const error = await failure(exchange(transport(), spec({ read: async () => 'read' })));
    expect(error).toMatchObject({ status: 300 });
  });

  test('a 3xx is not a success: never handed to the reader', async () => {
    script.push(status(302, undefined, { location: '/elsewhere' }), status(302, undefined, { location: '/elsewhere' }), status(302));
    const error = await failure(exchange(transport(), spec({ read: async () => 'read' })));
    expect(error).toMatchObject({ status: 302, code: 'REGISTER_UNAVAILABLE' });
  });

  test("the register's Date header sets the register clock", async () => {
    const t = transport();
    script.push(ok({ data: {} }, { date: 'Thu, 15 Jan 2026 23:59:50 GMT' }));
    const sent = Date.now();
    await exchange(t, spec());
    // The header's second (it has no finer resolution), moved on by what has passed here since.
    const drift = Math.abs(t.registerNow().getTime() - Date.parse('2026-01-15T23:59:50Z'));
    expect(drift).toBeLessThanOrEqual(1_000 + (Date.now() - sent));
  });
});

describe('credentials', () => {
  test('a credentials provider that throws something else than a RegisterError: that error, no request', async () => {
    const auth: AuthProvider = {
      authorize: async () => {
        throw new TypeError('no key');
      },
    };
    expect(await failure(exchange(transport(), spec({ auth })))).toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(0);
  });

  test('a token fetch refused by the register (400): not retried; its code, detail and field reach the caller', async () => {
    let fetches = 0;
    const auth: AuthProvider = {
      authorize: async () => {
        fetches += 1;
        throw new RegisterError({ status: 400, code: 'INVALID_REQUEST', route: 'token', detail: 'bad grant', field: 'grant_type' });
      },
    };
    const error = await failure(exchange(transport(), spec({ auth })));
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', status: 400, detail: 'bad grant', field: 'grant_type', route: 'token' });
    expect(fetches).toBe(1);
  });

  test.each([
    { label: 'a 5xx', init: { status: 503, code: 'REGISTER_UNAVAILABLE' as const }, tries: 3 },
    { label: 'a 500', init: { status: 500, code: 'REGISTER_UNAVAILABLE' as const }, tries: 3 },
    { label: 'no answer', init: { status: 0, code: 'REGISTER_TIMEOUT' as const }, tries: 3 },
    { label: 'a 429 with Retry-After', init: { status: 429, code: 'TOO_MANY_REQUESTS' as const, retryAfterSeconds: 0 }, tries: 3 },
    { label: 'a 429 without Retry-After', init: { status: 429, code: 'TOO_MANY_REQUESTS' as const }, tries: 1 },
    { label: 'a 4xx answer of the client kind', init: { status: 404, code: 'REGISTER_UNAVAILABLE' as const }, tries: 1 },
    { label: 'a 5xx with a register code', init: { status: 500, code: 'INTERNAL_ERROR' as const }, tries: 1 },
  ])('a token fetch that fails with $label is tried $tries time(s)', async ({ init, tries }) => {
    let fetches = 0;
    const auth: AuthProvider = {
      authorize: async () => {
        fetches += 1;
        throw new RegisterError({ route: 'token', ...init });
      },
    };
    const error = (await failure(exchange(transport(), spec({ auth })))) as RegisterError;
    expect(error).toMatchObject({ code: init.code, outcomeUnknown: false });
    expect(error.retryAfterSeconds).toBe(init.retryAfterSeconds);
    expect(fetches).toBe(tries);
    expect(seen).toHaveLength(0);
  });

  test("a token fetch answered 429 with Retry-After is tried again after that wait, not the back-off's", async () => {
    const at: number[] = [];
    const auth: AuthProvider = {
      authorize: async () => {
        at.push(performance.now());
        if (at.length === 1) throw new RegisterError({ route: 'token', status: 429, code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 1 });
        return { header: 'Bearer t', token: 't' };
      },
    };
    await exchange(transport({ timeouts: { deadlineMs: 3_000 } }), spec({ auth }));
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(900);
  });

  test('a token fetch that fails without Retry-After is tried again after the back-off', async () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999);
    try {
      const at: number[] = [];
      const auth: AuthProvider = {
        authorize: async () => {
          at.push(performance.now());
          if (at.length === 1) throw new RegisterError({ route: 'token', status: 503, code: 'REGISTER_UNAVAILABLE' });
          return { header: 'Bearer t', token: 't' };
        },
      };
      await exchange(transport({ retry: { attempts: 2, baseDelayMs: 300, maxDelayMs: 300 } }), spec({ auth }));
      expect(at).toHaveLength(2);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(250);
    } finally {
      random.mockRestore();
    }
  });

  test('a token fetch that outlives the deadline ends as REGISTER_TIMEOUT, not sent', async () => {
    const auth: AuthProvider = {
      authorize: (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    };
    const error = await failure(exchange(transport({ timeouts: { deadlineMs: 100 } }), spec({ auth })));
    expect(error).toMatchObject({ code: 'REGISTER_TIMEOUT', status: 0, detail: 'call deadline exceeded', outcomeUnknown: false });
    expect(seen).toHaveLength(0);
  });

  test("the caller giving up during the token fetch gets the caller's reason", async () => {
    const auth: AuthProvider = {
      authorize: (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    };
    const gaveUp = new AbortController();
    const asked = vi.spyOn(auth, 'authorize');
    const call = failure(exchange(transport(), spec({ auth, opts: { signal: gaveUp.signal } })));
    await vi.waitFor(() => expect(asked).toHaveBeenCalledOnce()); // the token fetch is under way
    gaveUp.abort(new Error('caller left'));
    expect(((await call) as Error).message).toBe('caller left');
  });

  test('a 401 to a token: the token is forgotten and one new attempt made; a provider without invalidate works too', async () => {
    const auth = bearer('stale');
    script.push(status(401, { code: 'UNAUTHORISED', message: 'expired' }));
    await exchange(transport(), spec({ auth }));
    expect(auth.invalidated).toEqual(['stale']);
    expect(seen).toHaveLength(2);

    script.push(status(401, { code: 'UNAUTHORISED', message: 'expired' }));
    await exchange(transport(), spec({ auth: { authorize: async () => ({ header: 'Bearer t', token: 't' }) } }));
    expect(seen).toHaveLength(4);
  });

  test("a 401 to basic credentials (no token) is refused with the register's words, not retried", async () => {
    script.push(status(401, { code: 'UNAUTHORISED', message: 'unknown client' }));
    const error = await failure(exchange(transport(), spec({ auth: { authorize: async () => ({ header: 'Basic eDp5' }) } })));
    expect(error).toMatchObject({ code: 'UNAUTHORISED', status: 401, detail: 'unknown client' });
    expect(seen).toHaveLength(1);
  });
});

describe('the quota and the call wrapper', () => {
  test('an admission is asked after the credentials, before every attempt', async () => {
    const steps: string[] = [];
    const auth: AuthProvider = {
      authorize: async () => {
        steps.push('credentials');
        return { header: 'Bearer t', token: 't' };
      },
    };
    script.push(status(503, { code: 'INTERNAL_ERROR', message: 'busy' }));
    await exchange(transport(), spec({ auth, gate: gate({ admit: async () => void steps.push('admit') }) }));
    expect(steps).toEqual(['credentials', 'admit', 'credentials', 'admit']);
    expect(seen).toHaveLength(2);
  });

  test("a refused admission ends the call with the quota's error: nothing sent, no event, no retry", async () => {
    let asked = 0;
    const refusal = new RegisterError({ status: 429, code: 'TOO_MANY_REQUESTS', route: 'titleSummary', retryAfterSeconds: 1 });
    const admit = async () => {
      asked += 1;
      throw refusal;
    };
    expect(await failure(exchange(transport(), spec({ gate: gate({ admit }) })))).toBe(refusal);
    expect(asked).toBe(1);
    expect(seen).toHaveLength(0);
    expect(events).toEqual([]);
  });

  test('before a sign-in the quota is asked first, and its refusal sends nothing, not even the sign-in; credentials at hand skip the look', async () => {
    const steps: string[] = [];
    const refusal = new RegisterError({ status: 429, code: 'TOO_MANY_REQUESTS', route: 'titleSummary', retryAfterSeconds: 30 });
    const signIn = (ready: boolean): AuthProvider => ({
      authorize: async () => {
        steps.push('sign-in');
        return { header: 'Bearer t', token: 't' };
      },
      ready: () => (ready ? { header: 'Bearer t', token: 't' } : undefined),
    });
    const refuseIfHeld = async () => {
      steps.push('look');
      throw refusal;
    };
    expect(
      await failure(
        exchange(transport(), spec({ auth: signIn(false), gate: gate({ refuseIfHeld, admit: async () => void steps.push('admit') }) })),
      ),
    ).toBe(refusal);
    expect(steps).toEqual(['look']);
    expect(seen).toHaveLength(0);
    expect(events).toEqual([]);
    // Nothing held: the look, the sign-in, the admission, then the call.
    steps.length = 0;
    const looked = async () => void steps.push('look');
    await exchange(
      transport(),
      spec({ auth: signIn(false), gate: gate({ refuseIfHeld: looked, admit: async () => void steps.push('admit') }) }),
    );
    expect(steps).toEqual(['look', 'sign-in', 'admit']);
    // A token at hand: no look (admission decides), no sign-in.
    steps.length = 0;
    await exchange(
      transport(),
      spec({ auth: signIn(true), gate: gate({ refuseIfHeld: looked, admit: async () => void steps.push('admit') }) }),
    );
    expect(steps).toEqual(['admit']);
    expect(seen).toHaveLength(2);
    // Admitted at once (a lease in hand): the admission is not asked; after the attempt, the gate hears how it went.
    steps.length = 0;
    const settled: RegisterCallEvent[] = [];
    const atOnce = gate({ admitNow: () => true, admit: async () => void steps.push('admit'), settled: (call) => void settled.push(call) });
    await exchange(transport(), spec({ auth: signIn(true), gate: atOnce }));
    expect(steps).toEqual([]);
    expect(seen).toHaveLength(3);
    expect(settled).toMatchObject([{ route: 'titleSummary', status: 200, outcome: 'ok' }]);
  });

  test('a failed token fetch keeps its cause for the logs', async () => {
    const cause = new Error('socket hang up');
    const auth: AuthProvider = {
      authorize: async () => {
        throw new RegisterError({ status: 400, code: 'INVALID_REQUEST', route: 'token', cause });
      },
    };
    const error = (await failure(exchange(transport(), spec({ auth })))) as RegisterError;
    expect(error.cause).toBe(cause);
  });

  test('the call wrapper is handed the route and method, once around all the attempts', async () => {
    const t = transport();
    const wrapped: { route: string; method: string }[] = [];
    t.wrapCalls((call, run) => {
      wrapped.push(call);
      return run();
    });
    script.push(status(503, { code: 'INTERNAL_ERROR', message: 'busy' }));
    expect(await exchange(t, spec())).toEqual({ data: { ok: true } });
    expect(wrapped).toEqual([{ route: 'titleSummary', method: 'GET' }]);
    expect(seen).toHaveLength(2);
  });
});

describe('reading the answer', () => {
  test('a reader that fails with an error of its own counts as a cut body: retried for a read, never a contract error', async () => {
    let reads = 0;
    const error = await failure(
      exchange(
        transport(),
        spec({
          read: async () => {
            reads += 1;
            throw new RangeError('stream broke');
          },
        }),
      ),
    );
    expect(error).toMatchObject({ code: 'REGISTER_UNAVAILABLE', status: 200, outcomeUnknown: false });
    expect(reads).toBe(3);
  });

  test('a body that breaks the contract: REGISTER_CONTRACT_ERROR, not retried (the register would say the same), and the connection stays usable', async () => {
    script.push(ok({ data: 'not an object' }));
    const readSummary: ExchangeSpec<unknown>['read'] = (res) => readJson(res, 'titleSummary', ROUTES.titleSummary.response);
    const t = transport();
    const error = await failure(exchange(t, spec({ read: readSummary })));
    expect(error).toMatchObject({ code: 'REGISTER_CONTRACT_ERROR', status: 200, outcomeUnknown: false });
    expect(seen).toHaveLength(1);
    expect(await exchange(t, spec())).toEqual({ data: { ok: true } });
  });

  test('a JSON body in several chunks, a character split between two of them, after a byte order mark: read whole, the mark dropped', async () => {
    const json = Buffer.from('\uFEFF{"data":{"name":"Ó Briain – Dùn Èideann"}}', 'utf8');
    const split = json.indexOf(Buffer.from('Ó', 'utf8')) + 1; // inside the two bytes of Ó
    script.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(json.length) });
      res.write(json.subarray(0, split));
      setTimeout(() => res.end(json.subarray(split)), 20);
    });
    const schema = z.object({ data: z.object({ name: z.string() }) });
    const value = await exchange(transport(), spec({ read: (res) => readJson(res, 'titleSummary', schema) }));
    expect(value).toEqual({ data: { name: 'Ó Briain – Dùn Èideann' } });
  });

  test("a download's deadline ends when its headers arrive: a body that takes longer still arrives whole", async () => {
    script.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      let sent = 0;
      const tick = setInterval(() => {
        res.write(Buffer.alloc(1_000, sent));
        if (++sent === 4) {
          clearInterval(tick);
          res.end();
        }
      }, 100);
    });
    const t = transport({ timeouts: { deadlineMs: 150, bodyMs: 1_000 } });
    const body = await exchange(
      t,
      spec({ route: ROUTES.downloadPlan, params: { titleNumber: 'MID1', planId: 'p1' }, read: async (res) => res.body }),
    );
    const bytes = Buffer.from(await body.arrayBuffer());
    expect(bytes.length).toBe(4_000);
  });

  test('a download uses the tenant’s download pool, an API call its API pool', async () => {
    const t = transport();
    const used: string[] = [];
    const original = t.dispatcher.bind(t);
    t.dispatcher = (tenant, kind) => {
      used.push(`${tenant}:${kind}`);
      return original(tenant, kind);
    };
    await exchange(t, spec());
    await exchange(
      t,
      spec({ route: ROUTES.downloadPlan, params: { titleNumber: 'MID1', planId: 'p1' }, read: async (res) => res.body.text() }),
    );
    expect(used).toEqual(['client-t:api', 'client-t:downloads']);
  });
});

describe('the caller, the deadline and the back-off', () => {
  test("the caller's signal does not switch the deadline off: a hanging read still ends at the deadline", async () => {
    script.push(hang, hang, hang);
    const caller = new AbortController();
    // No headers timeout within this test: only the deadline can end it.
    const error = await failure(
      exchange(transport({ timeouts: { headersMs: 600_000, deadlineMs: 150 } }), spec({ opts: { signal: caller.signal } })),
    );
    expect(error).toMatchObject({ code: 'REGISTER_TIMEOUT', detail: 'call deadline exceeded' });
    expect(seen).toHaveLength(1);
  });

  test("a caller's timeout is logged as a timeout, a plain abort as a network end", async () => {
    script.push(hang);
    await failure(exchange(transport(), spec({ opts: { signal: AbortSignal.timeout(30) } })));
    script.push(hang);
    const gaveUp = new AbortController();
    const left = failure(exchange(transport(), spec({ opts: { signal: gaveUp.signal } })));
    await vi.waitFor(() => expect(seen).toHaveLength(2)); // at the server, unanswered
    gaveUp.abort(new Error('left'));
    await left;
    expect(events.map((e) => e.outcome)).toEqual(['timeout', 'network']);
  });

  test("a caller who leaves during the back-off wait gets the caller's reason, with no further attempt", async () => {
    script.push(status(503, { code: 'INTERNAL_ERROR', message: 'busy' }, { 'retry-after': '1' }));
    const gaveUp = new AbortController();
    const call = failure(exchange(transport({ timeouts: { deadlineMs: 5_000 } }), spec({ opts: { signal: gaveUp.signal } })));
    await vi.waitFor(() => expect(events).toHaveLength(1)); // the 503 is in: it waits its second
    gaveUp.abort(new Error('caller left'));
    expect(((await call) as Error).message).toBe('caller left');
    expect(seen).toHaveLength(1);
  });

  test("a caller already gone: nothing is sent, no event, the caller's reason; a call that charges still goes", async () => {
    const gone = AbortSignal.abort(new Error('caller left'));
    const error = await failure(exchange(transport(), spec({ opts: { signal: gone } })));
    expect((error as Error).message).toBe('caller left');
    expect(seen).toHaveLength(0);
    expect(events).toHaveLength(0);
    await exchange(transport(), spec({ route: ROUTES.createCase, params: {}, json: {}, opts: { signal: gone } }));
    expect(seen).toHaveLength(1);
  });

  test('the calls in flight for one caller share one listener on its signal, and all end when the caller goes away', async () => {
    script.push(hang, hang, hang);
    const caller = new AbortController();
    const calls = [1, 2, 3].map((n) =>
      failure(exchange(transport(), spec({ params: { titleNumber: `MID${n}` }, opts: { signal: caller.signal } }))),
    );
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort(new Error('caller left'));
    for (const error of await Promise.all(calls)) expect((error as Error).message).toBe('caller left');
    expect(events.map((e) => e.outcome)).toEqual(['network', 'network', 'network']);
  });

  test("a call that charges or creates is not followed: the caller's leaving does not touch it", async () => {
    script.push((_req, res) => setTimeout(() => ok({ data: { ok: true } })(_req, res), 150));
    const caller = new AbortController();
    const call = exchange(transport(), spec({ route: ROUTES.createCase, params: {}, json: {}, opts: { signal: caller.signal } }));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    caller.abort(new Error('caller left'));
    await expect(call).resolves.toEqual({ data: { ok: true } });
  });

  test("a download's body stays the caller's to stop after the call returns", async () => {
    script.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write(Buffer.alloc(1_000));
    });
    const caller = new AbortController();
    const body = await exchange(
      transport({ timeouts: { headersMs: 1_000, bodyMs: 30_000, deadlineMs: 2_000 } }),
      spec({
        route: ROUTES.downloadPlan,
        params: { titleNumber: 'MID1', planId: 'p1' },
        read: async (res) => res.body,
        opts: { signal: caller.signal },
      }),
    );
    const ended = new Promise<unknown>((resolve) => body.once('error', resolve));
    body.resume();
    caller.abort(new Error('caller left'));
    expect(((await ended) as Error).message).toBe('caller left');
  });

  test('credentials at hand are used without asking for them; a token fetch is asked only without them', async () => {
    let asked = 0;
    const auth: AuthProvider = {
      ready: () => ({ header: 'Bearer ready', token: 'ready' }),
      authorize: async () => {
        asked++;
        return { header: 'Bearer fetched', token: 'fetched' };
      },
    };
    await exchange(transport(), spec({ auth }));
    await exchange(transport(), spec({ auth: { ...auth, ready: () => undefined } }));
    expect(seen.map((r) => r.headers.authorization)).toEqual(['Bearer ready', 'Bearer fetched']);
    expect(asked).toBe(1);
  });

  test('a Retry-After longer than the time left is not waited for: the last error comes at once', async () => {
    // Waiting it out, or the deadline, would outlast this test.
    script.push(status(503, { code: 'INTERNAL_ERROR', message: 'busy' }, { 'retry-after': '600' }));
    const error = await failure(exchange(transport({ timeouts: { deadlineMs: 120_000 } }), spec()));
    expect(error).toMatchObject({ status: 503, retryAfterSeconds: 600 });
    expect(seen).toHaveLength(1);
  });

  test('a call with an effect that was sent carries the register time it went out; a closed transport sends nothing', async () => {
    script.push(status(500, { code: 'INTERNAL_ERROR', message: 'x' }));
    const t = transport();
    const error = (await failure(exchange(t, spec({ route: ROUTES.createCase, params: {}, json: {} })))) as RegisterError;
    expect(error.outcomeUnknown).toBe(true);
    expect(error.sentAt).toBeInstanceOf(Date);
    await t.close();
    const closed = await failure(exchange(t, spec()));
    expect(closed).toMatchObject({ code: 'REGISTER_UNAVAILABLE', detail: 'transport is closed', status: 0 });
    expect(seen).toHaveLength(1);
  });

  test('a call that charges, waiting in the pool when its deadline passes, was never sent and says so; one that hangs after it went out is unknown', async () => {
    script.push(hang);
    const t = transport({
      connections: 1,
      retry: { attempts: 1 },
      timeouts: { connectMs: 1_000, headersMs: 5_000, bodyMs: 1_000, deadlineMs: 300 },
    });
    const [sentAndHung, queued] = (await Promise.all([
      failure(exchange(t, spec({ route: ROUTES.titleDetails }))),
      failure(exchange(t, spec({ route: ROUTES.titleDetails, params: { titleNumber: 'MID2' } }))),
    ])) as RegisterError[];
    expect(seen.map((r) => r.url)).toEqual(['/v1/titles/MID1/details']);
    expect(sentAndHung).toMatchObject({ outcomeUnknown: true, neverSent: false });
    expect(sentAndHung!.sentAt).toBeInstanceOf(Date);
    expect(queued).toMatchObject({ outcomeUnknown: false, neverSent: true });
  });

  test("the register's Date at the start of an answer to a call that charges comes with the answer, and with an answer that breaks off; a free call's does not", async () => {
    const date = 'Thu, 15 Jan 2026 23:59:59 GMT';
    const breaksOff: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100', date });
      res.write('{"data":');
      setTimeout(() => res.destroy(), 20);
    };
    script.push(ok({ data: { ok: true } }, { date }), ok({ data: { ok: true } }, { date }), breaksOff);
    const t = transport();
    const answeredAtOf = (res: RawResponse) => res.answeredAt;
    expect(await exchange(t, spec({ route: ROUTES.titleDetails, read: async (res) => answeredAtOf(res) }))).toEqual(new Date(date));
    expect(await exchange(t, spec({ read: async (res) => answeredAtOf(res) }))).toBeUndefined();
    const broken = await failure(exchange(t, spec({ route: ROUTES.titleDetails, read: (res) => res.body.text() })));
    expect(broken).toMatchObject({ outcomeUnknown: true, answeredAt: new Date(date) });
    expect((broken as RegisterError).sentAt).toBeInstanceOf(Date);
  });

  test('an attempt sent and unanswered past the slow threshold opens the breaker while it still waits', async () => {
    script.push(hang);
    const t = transport({
      retry: { attempts: 1 },
      breaker: { failureThreshold: 1, openMs: 10_000, slowMs: 50 },
      timeouts: { connectMs: 1_000, headersMs: 5_000, bodyMs: 1_000, deadlineMs: 5_000 },
    });
    const slow = failure(exchange(t, spec()));
    await vi.waitFor(() => expect(t.breaker.state()).toBe('open'), { timeout: 4_000, interval: 10 });
    // The refusal, while the slow one still waits, tells the caller how long the breaker stays open, in whole seconds.
    const refused = (await failure(exchange(t, spec()))) as RegisterError;
    expect(refused.code).toBe('CIRCUIT_OPEN');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(6);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(10);
    expect(seen).toHaveLength(1);
    server.closeAllConnections(); // the slow one's end, rather than its deadline
    await slow;
  });

  test('an open breaker refuses at once and says so', async () => {
    script.push(status(503), status(503), status(503));
    const t = transport({ retry: { attempts: 1 }, breaker: { failureThreshold: 1, openMs: 10_000 } });
    await failure(exchange(t, spec()));
    const error = await failure(exchange(t, spec()));
    expect(error).toMatchObject({ code: 'CIRCUIT_OPEN', status: 0, detail: 'circuit breaker is open', outcomeUnknown: false });
    expect(seen).toHaveLength(1);
  });

  test('a reset keeps a log-safe cause', async () => {
    script.push(
      (_req, res) => res.socket?.destroy(),
      (_req, res) => res.socket?.destroy(),
      (_req, res) => res.socket?.destroy(),
    );
    const error = (await failure(exchange(transport(), spec()))) as RegisterError;
    expect(error.code).toBe('REGISTER_UNAVAILABLE');
    expect(error.cause).toBeInstanceOf(Error);
  });
});
