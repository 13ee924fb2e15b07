/**
 * Entry point (`npm start`, through start.ts): reads configuration, starts the embedded register
 * emulator when no register is configured, and serves the GraphQL API. Everything it says goes
 * to stdout as one JSON line (pino), start, stop and failures alike, so a log shipper never
 * meets a plain-text line.
 */
import { createApp } from './server/app';
import { serve, type Serving } from './server/serve';
import { createLogger, logServiceEvents, type Logger } from './server/logging';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { startEmulator, type Emulator } from './emulator';
import { loadPersistedOperations } from './server/persisted-operations';
import { PgIdempotencyStore } from './storage/idempotency/pg-store';
import { createServices } from './services/create-services';
import { DEV_ORGANISATIONS, DEV_TENANTS } from './services/tenants';
import { formatPence } from './register/contract/money';

/** DATABASE_URL: idempotency records in PostgreSQL, shared by every replica (table created on start). */
async function openPgStore(connectionString: string): Promise<PgIdempotencyStore> {
  const store = new PgIdempotencyStore({ connectionString });
  try {
    await store.ready();
  } catch (error) {
    await store.close();
    throw new ConfigError(
      `DATABASE_URL: cannot open the idempotency store (${(error as { code?: string }).code ?? (error as Error).message})`,
    );
  }
  return store;
}

/** A port someone else holds is a setting to change, not a stack trace to read. */
function busyPortError(error: unknown, setting: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EADDRINUSE'
    ? new ConfigError(`${setting} ${port} is already in use: set ${setting} to a free port (0 picks one)`)
    : error;
}

async function main(config: AppConfig, logger: Logger) {
  const idempotency = config.databaseUrl ? await openPgStore(config.databaseUrl) : undefined;
  const persistedOperations = config.persistedOperations
    ? loadPersistedOperations(config.persistedOperations.files, config.persistedOperations.only)
    : undefined;
  let emulator: Emulator | undefined;
  if (!config.register) {
    emulator = await startEmulator({
      host: config.emulator.host,
      port: config.emulator.port,
      latencyMs: config.emulator.latencyMs,
      fees: {
        TITLE_DATA_AND_PLANS: formatPence(config.spend.feesPence.TITLE_DATA_AND_PLANS),
        PENDING_APPLICATIONS: formatPence(config.spend.feesPence.PENDING_APPLICATIONS),
      },
    }).catch((error: unknown) => {
      throw busyPortError(error, 'EMULATOR_PORT', config.emulator.port);
    });
  }
  const services = createServices({
    registerBaseUrl: config.register?.baseUrl ?? emulator!.url,
    tenants: config.register?.tenants ?? DEV_TENANTS,
    organisations: config.register?.organisations ?? DEV_ORGANISATIONS,
    spend: config.spend,
    ...(config.register ? {} : { anonymousTenant: 'dev-key-a' }),
    dataDir: config.dataDir,
    ...(idempotency ? { idempotency } : {}),
    concurrency: config.concurrency,
    referenceListTtlMs: config.referenceListTtlMs,
    summaryCacheTtlMs: config.summaryCacheTtlMs,
    prefetchSecurities: config.prefetchSecurities,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    quota: config.quota,
    downloadsPerTenant: config.downloads.perTenant,
    downloadIdleMs: config.downloads.idleMs,
    downloadMaxMs: config.downloads.maxMs,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    ...(config.downloadLinkSecret ? { downloadLinkSecret: config.downloadLinkSecret } : {}),
  });
  logServiceEvents(services.events, logger);
  const yoga = createApp(services, {
    logger,
    graphiql: config.graphiql,
    jit: config.jit,
    hardening: config.hardening,
    corsOrigins: config.corsOrigins,
    observability: {
      metrics: config.observability.metrics && { defaultMetrics: true },
      readiness: { timeoutMs: config.observability.readyTimeoutMs },
      tracing: config.observability.tracing,
    },
    ...(persistedOperations ? { persistedOperations } : {}),
    ...(emulator
      ? {
          graphiqlNote:
            'Embedded register emulator: requests without credentials act as dev-key-a.\nOther callers: add the header {"Authorization": "Bearer dev-key-a2"} or dev-key-b.',
        }
      : {}),
  });
  let serving: Serving;
  try {
    serving = await serve(yoga, { port: config.port, host: config.host, limits: config.http });
  } catch (error) {
    await services.close();
    await emulator?.close();
    throw busyPortError(error, 'PORT', config.port);
  }
  const url = `http://localhost:${serving.port}/graphql`;
  logger.info({ event: 'listening', url }, `titlegraph: GraphQL at ${url}`);
  if (emulator) logger.info({ event: 'register', register: emulator.url }, `register: embedded emulator at ${emulator.url}`);
  else logger.info({ event: 'register' }, 'register: external (REGISTER_BASE_URL)');

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // The drain has its own deadline; this one also covers closing the stores after it.
    setTimeout(() => {
      logger.error({ event: 'shutdown' }, 'titlegraph: shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownDeadlineMs + 5_000).unref();
    const drained = await serving.drain({
      deadlineMs: config.shutdownDeadlineMs,
      onListenerClosed: (inflight) =>
        logger.info({ event: 'draining', signal, inflight }, `titlegraph: ${signal}: draining ${inflight} in-flight request(s)`),
    });
    if (!drained) {
      const inflight = serving.inflightCount();
      logger.error({ event: 'shutdown', inflight }, `titlegraph: requests still running after ${config.shutdownDeadlineMs} ms; exiting`);
      process.exit(1);
    }
    try {
      // In-flight requests (and the charges they record) have finished: the stores can close.
      await services.close();
      await emulator?.close();
    } catch (error) {
      logger.error({ event: 'shutdown', err: error }, 'titlegraph: shutdown failed');
      process.exit(1);
    }
    logger.info({ event: 'stopped' }, 'titlegraph: stopped');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// Before the configuration is read: its own LOG_LEVEL when that is valid, else info.
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const logger = createLogger({ level: LEVELS.includes(process.env.LOG_LEVEL ?? '') ? process.env.LOG_LEVEL! : 'info' });
try {
  await main(loadConfig(), logger);
} catch (error) {
  if (error instanceof ConfigError) logger.error({ event: 'start' }, error.message);
  else logger.error({ event: 'start', err: error }, 'titlegraph failed to start');
  process.exit(1);
}
