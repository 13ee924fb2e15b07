/**
 * The node:http server in front of the app, with limits fit for a GraphQL API: a request
 * (headers and a body of at most 64 KiB) must arrive within `requestTimeout`, its headers within
 * `headersTimeout`, and no more than `maxConnections` sockets are open at once. Node's defaults
 * (300 s, 60 s, unlimited) let a client that sends slowly hold a connection for minutes.
 * Responses are not limited here: a download streams for as long as its caller reads
 * (see download-stream.ts for that limit).
 */
import { topLevelError } from '../graphql/error-codes';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse, type Server } from 'node:http';
import { exitProcess, type Logger } from '../observability/logging';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './settings';

export function createHttpServer(listener: RequestListener, limits: HttpLimits = DEFAULT_HTTP_LIMITS): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts on this interval (30 s by default): check often enough
      // that a limit holds to within a quarter of itself.
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1_000, Math.floor(Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs) / 4)),
      ),
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  // Node has no per-address cap (server.maxConnections is global); counted by hand, at accept.
  const perAddress = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const open = (perAddress.get(address) ?? 0) + 1;
    if (open > limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    perAddress.set(address, open);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  return server;
}

export interface Serving {
  server: Server;
  /** The port listened on (the one picked when 0 was asked for). */
  port: number;
  /** Requests being answered now. */
  inflightCount(): number;
  /**
   * Graceful stop: the listening socket closes (new connections are refused), a request that
   * still arrives on a kept-alive connection gets 503 SHUTTING_DOWN, idle connections close, and
   * every request already being answered runs to its end, so a charge it records is kept.
   * Resolves true once all have answered, or false when `deadlineMs` passes first, unless
   * `mustFinish` work is still running then: see MustFinish.
   */
  drain(options: DrainOptions): Promise<boolean>;
}

/**
 * Work that the drain's deadline never cuts: register calls that charge or create, with the
 * recording of their outcome. Cut, such a call leaves a charge nobody was told of (the caller
 * reads OUTCOME_UNKNOWN); each ends by its own register deadline anyway, so waiting is bounded.
 */
interface MustFinish {
  /** What is running now (a call that starts while the drain waits is waited for too). */
  inFlight(): readonly Promise<unknown>[];
  /** How long past the drain's deadline it may be waited for: the register call deadline. */
  maxMs: number;
  /** Told when the deadline has passed with this many still running. */
  onWait?: (running: number) => void;
}

interface DrainOptions {
  deadlineMs: number;
  onListenerClosed?: (inflight: number) => void;
  mustFinish?: MustFinish;
}

/**
 * Once the work a request must finish has ended, how long that request gets to write its answer
 * (a journal entry is already written; what is left is serialising a payload): after it, a
 * request still running is one of those the deadline cuts.
 */
const ANSWER_GRACE_MS = 2_000;

const SHUTTING_DOWN_BODY = JSON.stringify({
  errors: [topLevelError('SHUTTING_DOWN', 'The service is shutting down; retry.')],
});

const TWO_CREDENTIALS_BODY = JSON.stringify({
  errors: [
    topLevelError(
      'UNAUTHENTICATED',
      'Send one Authorization header: this request has several, and it cannot be told which credential is the caller’s. Nothing was done.',
    ),
  ],
});

/**
 * Node keeps the first of two Authorization headers and drops the other (IncomingMessage.headers),
 * so a proxy that added its own beside the caller's would act as whichever came first. Read from
 * the raw list, where both remain (RFC 6750 §3.1: invalid_request, 400).
 */
function hasTwoAuthorizationHeaders(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization' && ++seen > 1) return true;
  }
  return false;
}

/**
 * Listens with `handler` and owns its lifecycle. Written here rather than taken from a package
 * (e.g. http-terminator, stoppable): those close sockets but neither refuse late requests in
 * GraphQL's error shape nor wait on the handler's own promise, which is what keeps a charge
 * that is being recorded from being cut off.
 */
export async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
  options: { port: number; host?: string; limits?: HttpLimits },
): Promise<Serving> {
  let draining = false;
  // A count and one callback per request, not a Set of promises: this runs for every request,
  // and its promises, closures and listener were a measurable part of a small one's CPU.
  let inflight = 0;
  let whenAllAnswered: (() => void) | undefined;
  const closeIdle = () => server.closeIdleConnections();
  const server = createHttpServer((req, res) => {
    if (draining) {
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' });
      res.end(SHUTTING_DOWN_BODY);
      return;
    }
    if (hasTwoAuthorizationHeaders(req)) {
      res.writeHead(400, { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_request"' });
      res.end(TWO_CREDENTIALS_BODY);
      return;
    }
    inflight++;
    const answered = () => {
      inflight--;
      if (!draining) return;
      // A response finished while draining leaves an idle connection: close it at once.
      if (res.writableFinished) setImmediate(closeIdle);
      else res.once('finish', () => setImmediate(closeIdle));
      if (inflight === 0) whenAllAnswered?.();
    };
    let handled: unknown;
    try {
      handled = handler(req, res);
    } catch {
      answered();
      return;
    }
    if (typeof (handled as PromiseLike<unknown> | undefined)?.then === 'function')
      (handled as PromiseLike<unknown>).then(answered, answered);
    else answered();
  }, options.limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  const drain: Serving['drain'] = async ({ deadlineMs, onListenerClosed, mustFinish }) => {
    draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Told once the listening socket is closed, so whoever reads it finds new connections refused.
    await new Promise((resolve) => setTimeout(resolve, 0));
    onListenerClosed?.(inflight);
    const sweep = setInterval(closeIdle, 250);
    const allAnswered = inflight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (whenAllAnswered = resolve));
    const answered = Promise.all([closed, allAnswered]).then(() => true as const);
    try {
      if (await within(answered, deadlineMs)) return true;
      if (!mustFinish || mustFinish.inFlight().length === 0) return false;
      mustFinish.onWait?.(mustFinish.inFlight().length);
      const waitUntil = performance.now() + mustFinish.maxMs;
      for (let running = mustFinish.inFlight(); running.length > 0; running = mustFinish.inFlight()) {
        if (!(await within(Promise.allSettled(running), waitUntil - performance.now()))) return false;
      }
      return await within(answered, ANSWER_GRACE_MS);
    } finally {
      clearInterval(sweep);
    }
  };
  return { server, port, inflightCount: () => inflight, drain };
}

/** True if `work` settles within `ms` (false at once when `ms` is not positive). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  if (ms <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ShutdownOptions {
  serving: Serving;
  /** Closes what requests use (stores, the embedded emulator), once every request has answered. */
  close(): Promise<void>;
  /** How long in-flight requests get to finish after the signal. */
  deadlineMs: number;
  /** Register calls that charge or create: waited for past the deadline, up to their own (see MustFinish). */
  mustFinish?: Omit<MustFinish, 'onWait'>;
  logger: Logger;
  /** Ends the process: exitProcess, which never hangs on a stdout nobody reads (tests pass their own). */
  exit?: (code: number) => void;
}

/**
 * What SIGTERM and SIGINT do: drain (requests in flight finish and record their charges), close
 * the stores, then exit 0; exit 1 when requests are still running at the deadline, or when
 * closing fails. A watchdog exits 1 should closing itself hang. Returns the handler (tests call it).
 */
export function shutdownOnSignals(options: ShutdownOptions): (signal: NodeJS.Signals) => Promise<void> {
  const { serving, logger, deadlineMs } = options;
  const exit = options.exit ?? ((code: number) => exitProcess(code));
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // The drain has its own deadlines; this one also covers closing the stores after them.
    const mustFinishMs = options.mustFinish ? options.mustFinish.maxMs + ANSWER_GRACE_MS : 0;
    setTimeout(
      () => {
        logger.error({ event: 'shutdown' }, 'titlegraph: shutdown did not finish in time; exiting');
        exit(1);
      },
      deadlineMs + mustFinishMs + 5_000,
    ).unref();
    const drained = await serving.drain({
      deadlineMs,
      onListenerClosed: (inflight) =>
        logger.info({ event: 'draining', signal, inflight }, `titlegraph: ${signal}: draining ${inflight} in-flight request(s)`),
      ...(options.mustFinish
        ? {
            mustFinish: {
              ...options.mustFinish,
              onWait: (running) =>
                logger.warn(
                  { event: 'draining', running },
                  `titlegraph: ${deadlineMs} ms have passed; waiting up to ${options.mustFinish!.maxMs} ms more for ${running} register call(s) that charge or create, so their callers get their outcome`,
                ),
            },
          }
        : {}),
    });
    if (!drained) {
      const inflight = serving.inflightCount();
      logger.error({ event: 'shutdown', inflight }, `titlegraph: requests still running after ${deadlineMs} ms; exiting`);
      return exit(1);
    }
    try {
      // In-flight requests (and the charges they record) have finished: the stores can close.
      await options.close();
    } catch (error) {
      logger.error(
        { event: 'shutdown', err: { name: (error as Error).name, message: (error as Error).message } },
        'titlegraph: shutdown failed',
      );
      return exit(1);
    }
    logger.info({ event: 'stopped' }, 'titlegraph: stopped');
    exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return stop;
}
