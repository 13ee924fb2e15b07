/**
 * Structured JSON logs (pino) built from an allow-list: every record is assembled here from
 * named, harmless fields (ids, routes, statuses, durations, codes). Nothing a caller sent is
 * logged as-is: no headers, variables, query text, tokens, API keys, FAS numbers, idempotency
 * keys or personal data.
 */
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { EventHub } from '../services/events';
import { DatabaseUnavailableError } from '../storage/database-unavailable';
import { onPostgresOutage } from '../storage/pg-database';
import { isOperationName, requestIdOf, requestRecordOf } from './request-record';

export type { Logger };

/**
 * pino's isoTime formats a Date for every line; on a busy service that is a visible share of the
 * CPU per request. Lines of one second share all but the milliseconds: the text up to them is
 * kept per second, and lines of one millisecond share the whole text.
 */
let lastTimeMs = -1;
let lastTimeText = '';
let lastSecond = -1;
let lastSecondPrefix = '';
function isoTime(): string {
  const now = Date.now();
  if (now === lastTimeMs) return lastTimeText;
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    // "2026-11-26T17:24:54." from "2026-11-26T17:24:54.000Z"
    lastSecondPrefix = `,"time":"${new Date(second * 1000).toISOString().slice(0, 20)}`;
  }
  lastTimeMs = now;
  lastTimeText = `${lastSecondPrefix}${String(now - second * 1000).padStart(3, '0')}Z"`;
  return lastTimeText;
}

/** The stdout of createLogger's loggers, so that an exit can write what it gathered safely. */
let stdoutDestination: GatheredStdout | undefined;

/** SonicBoom's own state (not in its typings): lines buffered, a write under way, the stream destroyed. */
function streamState(destination: object): { buffered: boolean; writing: boolean; destroyed: boolean } {
  const state = destination as { _len?: unknown; _writing?: unknown; destroyed?: unknown };
  const sonic = typeof state._len === 'number';
  return { buffered: sonic && (state._len as number) > 0, writing: sonic && state._writing === true, destroyed: state.destroyed === true };
}

/**
 * Bytes of log lines gathered before a write to stdout, and the longest a line waits for company.
 * 16 KB (just under sonic-boom's largest write, 16 KiB) took about 3 % of a `title`'s CPU off
 * 4 KB, side by side (docs/performance.md); 64 KB writes gained nothing more.
 */
const LOG_WRITE_BYTES = 16_000;
const LOG_WRITE_AFTER_MS = 25;

/**
 * stdout written asynchronously and in 16 KB writes, as pino's docs advise in production: written
 * a line at a time, each request's line cost a system call on the thread pool, about 3 % of a
 * small request's CPU under load (docs/performance.md). A line waits at most LOG_WRITE_AFTER_MS
 * for others, and exitProcess (or the process's exit) writes the rest on the way out.
 *
 * The lines are gathered here, not in sonic-boom (its minLength): sonic-boom appends each line to
 * the text it holds and measures that text's UTF-8 length on every write, which makes V8 copy the
 * whole text, up to 16 KB, once per line. Here each line is only kept, and sonic-boom is handed
 * one joined text per write.
 */
class GatheredStdout implements DestinationStream {
  private lines: string[] = [];
  private length = 0;

  constructor(readonly sonic: ReturnType<typeof pino.destination>) {}

  write(line: string): void {
    this.lines.push(line);
    // UTF-16 code units: the size in bytes for the ASCII that log lines are, near enough otherwise.
    this.length += line.length;
    if (this.length >= LOG_WRITE_BYTES) this.hand();
  }

  /** Hands what gathered to sonic-boom, which writes it at once (or after the write under way). */
  hand(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.length = 0;
    if (streamState(this.sonic).destroyed) return;
    try {
      this.sonic.write(text);
    } catch {
      // the stream has ended or broken: its lines are lost, the process goes on
    }
  }

  /** pino's logger.flush(): what gathered is handed on; sonic-boom writes without waiting. */
  flush(done?: (error?: Error) => void): void {
    this.hand();
    done?.();
  }

  /** What is gathered here, buffered in sonic-boom or being written. */
  get pending(): boolean {
    const { buffered, writing } = streamState(this.sonic);
    return this.lines.length > 0 || buffered || writing;
  }
}

/**
 * Exits once stdout has taken what is buffered, waiting at most `timeoutMs`. pino flushes its
 * stdout buffer synchronously on exit, and SonicBoom's synchronous flush retries a failed write
 * forever (sonic-boom's flushSync sleeps and loops on any error): with stdout a pipe whose
 * reader has gone (`npm start | head`) or stopped reading, the process then never exits, whatever
 * timer it set. So the asynchronous writes get their chance first (a broken pipe then fails
 * them, and pino stops writing), and the synchronous flush is switched off: the tail of the log
 * may be lost, the exit never is.
 */
export function exitProcess(code: number, timeoutMs = 1_000): void {
  const destination = stdoutDestination;
  const exit = () => {
    if (destination) destination.sonic.flushSync = () => undefined;
    process.exit(code);
  };
  if (!destination) {
    exit();
    return;
  }
  const deadline = Date.now() + timeoutMs;
  // Lines gathering for a 16 KB write would otherwise wait for company that never comes.
  const wait = () => {
    destination.hand();
    if (destination.pending && Date.now() < deadline) setTimeout(wait, 10);
    else exit();
  };
  wait();
}

function gatheredStdout(): GatheredStdout {
  const gathered = new GatheredStdout(pino.destination({ dest: 1, sync: false }));
  setInterval(() => gathered.hand(), LOG_WRITE_AFTER_MS).unref();
  // An exit that is not exitProcess's (a crash, say): what gathered is written as pino writes its
  // own buffer then, synchronously (exitProcess has switched that off when it exits).
  process.on('exit', () => {
    gathered.hand();
    try {
      gathered.sonic.flushSync();
    } catch {
      // not open yet, or already closed: nothing more can be written
    }
  });
  return gathered;
}

const NO_TRACE = Object.freeze({});

/** A line written inside a traced request names its trace and span (OpenTelemetry), so logs and traces join. */
function traceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : NO_TRACE;
}

/** pino's own strategy copies every line into the mixin's object: a line outside a trace has nothing to add. */
function withTraceIds(line: object, ids: object): object {
  return ids === NO_TRACE ? line : Object.assign(ids, line);
}

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  if (!options.destination) stdoutDestination ??= gatheredStdout();
  const destination = options.destination ?? stdoutDestination!;
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'titlegraph' },
      timestamp: isoTime,
      // A last line of defence; the records themselves never carry these.
      redact: { paths: ['authorization', 'headers', 'variables', 'fas', 'idempotencyKey'], censor: '[redacted]' },
      mixin: traceIds,
      mixinMergeStrategy: withTraceIds,
    },
    destination,
  );
}

/** A register call as the request's log line lists it. */
interface LoggedCall {
  route: string;
  status: number;
  outcome: string;
  attempt: number;
  durationMs: number;
}

/**
 * The register calls of each request still being answered, so that its one log line carries
 * them (instead of a line per call). A call that ends after its request's line (a deferred part,
 * a call the caller stopped waiting for) gets a line of its own.
 */
const MAX_OPEN_REQUESTS = 10_000;

class RequestCalls {
  private readonly open = new Map<string, LoggedCall[]>();
  start(requestId: string): void {
    // A request that never reaches its response (its connection gone) must not stay here for
    // ever: past this many open requests the oldest is dropped (its calls then get lines of their own).
    if (this.open.size >= MAX_OPEN_REQUESTS) this.open.delete(this.open.keys().next().value!);
    this.open.set(requestId, []);
  }
  add(requestId: string | undefined, call: LoggedCall): boolean {
    const calls = requestId === undefined ? undefined : this.open.get(requestId);
    if (!calls) return false;
    calls.push(call);
    return true;
  }
  finish(requestId: string): LoggedCall[] {
    const calls = this.open.get(requestId) ?? [];
    this.open.delete(requestId);
    return calls;
  }
}

/** One per logger: the request plugin and the service events written to the same logger share it. */
const requestCallsByLogger = new WeakMap<Logger, RequestCalls>();
function requestCallsOf(logger: Logger): RequestCalls {
  let calls = requestCallsByLogger.get(logger);
  if (!calls) {
    calls = new RequestCalls();
    requestCallsByLogger.set(logger, calls);
  }
  return calls;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Paths that orchestrators, load balancers and scrapers poll every few seconds: a line each at
 * info would bury the requests a person reads (944 lines of a replica's log in one drill). Their
 * answers are logged at debug, except a failing one (5xx, e.g. /ready saying not ready), which
 * an operator wants to see.
 */
const DEFAULT_PROBE_PATHS: readonly string[] = ['/health', '/ready', '/metrics'];

/** One line per HTTP request: id, method, path (no query string), status, duration, operation, and its register calls. */
export function useRequestLogging(logger: Logger, probePaths: readonly string[] = DEFAULT_PROBE_PATHS): Plugin {
  const calls = requestCallsOf(logger);
  const probes = new Set(probePaths);
  return {
    onRequest({ request }) {
      calls.start(requestIdOf(request));
    },
    onResponse({ request, response }) {
      const { id, startedAt, operation, operationName, path } = requestRecordOf(request);
      response.headers.set('x-request-id', id);
      // A request refused before its document was read has only the name it sent, when that is a name.
      const name = operation ? operation.name : operationName && isOperationName(operationName) ? operationName : undefined;
      const registerCalls = calls.finish(id);
      const urlPath = path ?? new URL(request.url).pathname;
      const level = probes.has(urlPath) && response.status < 500 ? 'debug' : 'info';
      logger[level](
        {
          requestId: id,
          method: request.method,
          path: urlPath,
          status: response.status,
          durationMs: round(performance.now() - startedAt),
          ...(name ? { operationName: name } : {}),
          ...(operation ? { operationType: operation.type } : {}),
          ...(registerCalls.length > 0 ? { registerCalls } : {}),
        },
        'request',
      );
    },
  };
}

/**
 * Register calls go into their request's line (see useRequestLogging); one that belongs to no
 * request being answered gets its own line. Idempotency decisions and charges have their own lines.
 */
export function logServiceEvents(events: EventHub, logger: Logger): void {
  const calls = requestCallsOf(logger);
  events.on('registerCall', (call) => {
    const logged = {
      route: call.route,
      status: call.status,
      outcome: call.outcome,
      attempt: call.attempt,
      durationMs: round(call.durationMs),
    };
    if (calls.add(call.requestId, logged)) return;
    logger.info(
      {
        ...(call.requestId ? { requestId: call.requestId } : {}),
        route: call.route,
        method: call.method,
        status: call.status,
        outcome: call.outcome,
        attempt: call.attempt,
        durationMs: round(call.durationMs),
      },
      'register call',
    );
  });
  events.on('idempotency', (e) => {
    if (e.outcome !== 'executed') logger.info({ operation: e.operation, outcome: e.outcome }, 'idempotency');
  });
  events.on('charges', (e) => {
    for (const charge of e.charges) logger.info({ operation: e.operation, productType: charge.productType, fee: charge.fee }, 'charge');
  });
  events.on('chargeAboveMaxFee', (e) =>
    logger.warn(
      { operation: e.operation, chargedPence: e.chargedPence, maxFeePence: e.maxFeePence },
      'the register charged more than the caller allowed with maxFee (its fee changed); the charge was shown',
    ),
  );
  events.on('spendRefused', (e) => logger.info({ reason: e.reason }, 'refused by spend control, nothing sent'));
  events.on('storageOutage', (e) =>
    logger.error(
      { event: 'storage', reason: e.reason, dataDir: e.dataDir },
      `titlegraph: ${e.message} (DATA_DIR ${e.dataDir}): requests that need it are answered 503 SERVICE_UNAVAILABLE, nothing sent to the register, and /ready is 503, until it takes writes again`,
    ),
  );
  events.on('storageRecovered', (e) =>
    logger.info(
      { event: 'storage', reason: e.reason, dataDir: e.dataDir, downMs: Math.round(e.downMs) },
      `titlegraph: the database in DATA_DIR ${e.dataDir} takes writes again, after ${Math.round(e.downMs / 1000)} s`,
    ),
  );
  // PostgreSQL (DATABASE_URL) the same way: one line when an outage starts, one when it ends.
  onPostgresOutage((e) =>
    e.kind === 'outage'
      ? logger.error(
          { event: 'storage', reason: e.reason, database: e.database },
          `titlegraph: ${e.error.message} (PostgreSQL ${e.database}): requests that need it are answered 503 SERVICE_UNAVAILABLE, nothing sent to the register, and /ready is 503, until it answers again`,
        )
      : logger.info(
          { event: 'storage', reason: e.reason, database: e.database, downMs: Math.round(e.downMs) },
          `titlegraph: PostgreSQL ${e.database} answers again, after ${Math.round(e.downMs / 1000)} s`,
        ),
  );
  events.on('tenantsFile', (e) => {
    if (e.outcome === 'refused') {
      logger.error({ event: 'tenants', version: e.version }, `tenants file not reloaded, version ${e.version} still runs: ${e.reason}`);
    } else {
      logger.info(
        { event: 'tenants', version: e.version, outcome: e.outcome },
        e.outcome === 'applied'
          ? `tenants file reloaded: version ${e.version} serves every new request (was ${e.previous ?? 'none'})`
          : `tenants file read again: unchanged, version ${e.version} runs`,
      );
    }
  });
  events.on('identityKeys', (e) =>
    e.ok
      ? logger.info({ issuer: e.issuer }, "identity provider's signing keys fetched")
      : logger.warn(
          { issuer: e.issuer, reason: e.reason },
          "identity provider's signing keys could not be fetched: its people's new tokens cannot be verified (503) until they can",
        ),
  );
  // Once a minute per key id at most: a forged link may name any id, as often as it likes.
  const unknownKeysTold = new Map<string, number>();
  events.on('downloadLinkUnknownKey', (e) => {
    const now = performance.now();
    if (now - (unknownKeysTold.get(e.keyId) ?? Number.NEGATIVE_INFINITY) < 60_000) return;
    if (unknownKeysTold.size >= 100) unknownKeysTold.clear();
    unknownKeysTold.set(e.keyId, now);
    logger.warn(
      { event: 'download_link_key', keyId: e.keyId, signingKeyId: e.knownKeyIds[0], knownKeyIds: e.knownKeyIds },
      `a download link signed with key ${e.keyId} arrived; this replica signs with ${e.knownKeyIds[0]} and checks with ${e.knownKeyIds.join(', ')}, so it refused the link (403 DOWNLOAD_LINK_INVALID): replicas disagree on DOWNLOAD_LINK_SECRET (docs/operations.md, Rotating DOWNLOAD_LINK_SECRET), unless the link is forged`,
    );
  });
  // Once a minute per sign at most: an unconfigured gateway sends every one of its requests so.
  const gatewaysTold = new Map<string, number>();
  events.on('gatewayWithoutRouterKey', (e) => {
    const now = performance.now();
    if (now - (gatewaysTold.get(e.sign) ?? Number.NEGATIVE_INFINITY) < 60_000) return;
    gatewaysTold.set(e.sign, now);
    logger.warn(
      { event: 'gateway_without_router_key', requestId: e.requestId, sign: e.sign },
      `a request that looks like a federation gateway's (${e.sign}) came without titlegraph-router-key: titlegraph cannot tell whether the gateway's money rules checked it, so a purchase beside another mutation could be charged and hidden; give the gateway the router key (docs/federation.md)`,
    );
  });
  events.on('journalDeferred', (e) =>
    logger.warn({ waiting: e.waiting }, 'journal write failed after the register answered; retried until the database takes it'),
  );
}

/** A database outage behind an error (through GraphQL's originalError and causes): told once per episode, not per request. */
function databaseOutageBehind(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    e = (e as { originalError?: unknown }).originalError ?? e.cause;
  }
  return false;
}

/**
 * A refusal of the request itself (a body that is not JSON, a missing query): Yoga gave it a
 * 4xx status. It is the caller's mistake, not ours, and needs no key to send.
 */
function isRequestRefusal(value: unknown): value is GraphQLError {
  if (!(value instanceof GraphQLError)) return false;
  const status = (value.extensions?.http as { status?: unknown } | undefined)?.status;
  return value.extensions?.http !== undefined && (typeof status !== 'number' || status < 500);
}

/**
 * Yoga's own log lines (e.g. unexpected errors) as pino records: the error's name and stack, never
 * request data. A request refusal is one info line without a stack (Yoga reports the same error
 * twice, once as it masks it and once as it answers): anyone can send them, so a stack per
 * request at error level would let them fill the log and page the operator.
 */
export function yogaLogger(logger: Logger) {
  const describe = (args: unknown[]) =>
    args.map((a) => (a instanceof Error ? { name: a.name, message: a.message, stack: a.stack } : typeof a === 'string' ? a : typeof a));
  const reported = new WeakSet<GraphQLError>();
  return {
    // Yoga says three things at debug on every request: weighed before they are described.
    debug: (...args: unknown[]) => {
      if (logger.isLevelEnabled('debug')) logger.debug({ yoga: describe(args) });
    },
    info: (...args: unknown[]) => logger.info({ yoga: describe(args) }),
    warn: (...args: unknown[]) => logger.warn({ yoga: describe(args) }),
    error: (...args: unknown[]) => {
      const [first] = args;
      if (args.length === 1 && isRequestRefusal(first)) {
        if (reported.has(first)) return;
        reported.add(first);
        logger.info({ refusal: first.message, status: (first.extensions.http as { status?: number }).status ?? 400 }, 'request refused');
        return;
      }
      // A database outage is logged once per episode (storageOutage, onPostgresOutage), not once per request it refuses.
      if (args.some(databaseOutageBehind)) logger.debug({ yoga: describe(args) });
      else logger.error({ yoga: describe(args) });
    },
  };
}
