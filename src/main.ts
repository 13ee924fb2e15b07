/**
 * Entry point (`npm start`, through start.ts): reads configuration, starts the embedded register
 * emulator when no register is configured, and serves the GraphQL API. Everything it says goes
 * to stdout as one JSON line (pino), start, stop and failures alike, so a log shipper never
 * meets a plain-text line.
 */
import { applyV8Settings } from './v8-settings';
import { createApp } from './server/app';
import { loadGraphiQL } from './server/graphiql';
import { serve, shutdownOnSignals, type Serving } from './server/serve';
import { createLogger, exitProcess, logServiceEvents, type Logger } from './observability/logging';
import { ConfigError, loadConfig, type AppConfig } from './config';
import type { Emulator } from './emulator';
import { createServices, type RunningServices, StoreOpenError } from './services/create-services';
import { reloadOnChange } from './server/reload-on-change';
import { DEV_ORGANISATIONS, DEV_API_KEYS } from './services/callers';
import { formatPence, perProduct } from './register/contract/money';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A port someone else holds is a setting to change, not a stack trace to read. */
function busyPortError(error: unknown, setting: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EADDRINUSE'
    ? new ConfigError(`${setting} ${port} is already in use: set ${setting} to a free port (0 picks one)`)
    : error;
}

/**
 * The emulator (its PDF library) and GraphiQL's 18 MB page are loaded only when this start uses
 * them: the container image's default target leaves their packages out. A start that needs one
 * that is missing names the package and the way on, rather than a module error.
 */
async function loadPart<T>(load: () => Promise<T>, part: string, instead: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing =
      (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND'
        ? /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1]
        : undefined;
    if (!missing) throw error;
    throw new ConfigError(
      `${part} needs the package ${missing}, which is not installed here (the container image's default target leaves it out): ${instead}, or build the image's full target (docker build --target full .).`,
    );
  }
}

/** The data folder of the embedded stores must be a folder this process can write to. */
function checkDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'it, or a part of its path, is a file'
        : code === 'EACCES'
          ? 'it may not be created here'
          : code;
    throw new ConfigError(`Invalid configuration: DATA_DIR ${JSON.stringify(dataDir)} cannot be used: ${why}.`);
  }
  if (!statSync(dataDir).isDirectory()) {
    throw new ConfigError(`Invalid configuration: DATA_DIR ${JSON.stringify(dataDir)} cannot be used: it is a file, not a folder.`);
  }
  try {
    accessSync(dataDir, constants.W_OK);
  } catch {
    throw new ConfigError(`Invalid configuration: DATA_DIR ${JSON.stringify(dataDir)} cannot be used: this process may not write to it.`);
  }
}

/** The embedded emulator's state, in DATA_DIR whatever holds the journal (docs/emulator.md). */
const EMULATOR_STATE_FILE = 'register-emulator.sqlite';

/**
 * A state file about to be made new beside a journal that may hold charges it never saw (a
 * DATA_DIR of a release that kept no emulator state, a state file deleted alone, or a database):
 * until London midnight the register and the journal may disagree about today. Said once: the
 * next start finds the file.
 */
function warnNewEmulatorState(config: AppConfig, stateFile: string, logger: Logger): void {
  if (existsSync(stateFile)) return;
  const journalIn = config.databaseUrl
    ? 'the database at DATABASE_URL'
    : readdirSync(config.dataDir).some((name) => !name.startsWith(EMULATOR_STATE_FILE))
      ? `DATA_DIR ${config.dataDir}`
      : undefined;
  if (!journalIn) return;
  const clean = config.databaseUrl
    ? `stop titlegraph, delete ${stateFile} and start on an empty database`
    : `stop titlegraph and delete ${config.dataDir}`;
  logger.warn(
    { event: 'register', dataDir: config.dataDir, stateFile },
    `register: the embedded emulator starts a new state file, ${stateFile}, but ${journalIn} may hold charges from an earlier start that it does not know: until London midnight a quote may say "already bought" for a title the emulator charges again, and transaction numbers of today may repeat. To start clean, ${clean}.`,
  );
}

async function main(config: AppConfig, logger: Logger) {
  // With DATABASE_URL every store is in PostgreSQL; otherwise they live in DATA_DIR. The embedded
  // emulator keeps its state in DATA_DIR either way.
  if (!config.databaseUrl || !config.register) checkDataDir(config.dataDir);
  if (config.env === 'production' && !config.publicUrl) {
    logger.warn(
      { event: 'start' },
      "PUBLIC_URL is not set: download links take their address from each request's Host header; set PUBLIC_URL to the public address behind a gateway or proxy.",
    );
  }
  if (config.graphiql) await loadPart(loadGraphiQL, 'GraphiQL (GRAPHIQL=true, the default outside production)', 'set GRAPHIQL=false');
  const embedded = config.register
    ? undefined
    : await loadPart(
        // Its documents load pdf-lib on the first one: load it now, so a missing package stops the start.
        () => Promise.all([import('./emulator'), import('./emulator/pdf')]).then(([emulator]) => emulator),
        'The embedded register emulator (REGISTER=emulator, or no REGISTER_BASE_URL outside production)',
        'set REGISTER_BASE_URL to the register (ending in /v1)',
      );
  let emulator: Emulator | undefined;
  if (embedded) {
    // The register's state must outlive a restart as the journal does, or the two disagree:
    // "already bought" quotes the register charges again, transaction numbers repeated.
    const stateFile = join(config.dataDir, EMULATOR_STATE_FILE);
    warnNewEmulatorState(config, stateFile, logger);
    emulator = await embedded
      .startEmulator({
        host: config.emulator.host,
        port: config.emulator.port,
        latencyMs: config.emulator.latencyMs,
        fees: perProduct((product) => formatPence(config.spend.feesPence[product])),
        stateFile,
      })
      .catch((error: unknown) => {
        if (error instanceof embedded.EmulatorStateError) throw new ConfigError(`DATA_DIR: ${error.message}`);
        throw busyPortError(error, 'EMULATOR_PORT', config.emulator.port);
      });
  }
  // The configuration's sections are what createServices and createApp take; only the register
  // (an external one or the embedded emulator) is decided here; createServices opens every store.
  const services = createServices({
    ...config,
    registerBaseUrl: config.register?.baseUrl ?? emulator!.url,
    apiKeys: config.register?.tenants ?? DEV_API_KEYS,
    organisations: config.register?.organisations ?? DEV_ORGANISATIONS,
    clients: config.register?.clients ?? {},
    identityProviders: config.register?.identityProviders ?? config.emulator.identityProviders,
    ...(config.register?.file ? { callersVersion: config.register.file.version } : {}),
    // The emulator's keyless caller is a development convenience; in production every caller needs a key.
    ...(config.register || config.env === 'production' ? {} : { anonymousKey: 'dev-key-a' }),
  });
  await services.opened().catch(async (error: unknown) => {
    await services.close().catch(() => undefined);
    await emulator?.close().catch(() => undefined);
    throw error instanceof StoreOpenError ? new ConfigError(`DATABASE_URL: ${error.message}`) : error;
  });
  logServiceEvents(services.events, logger);
  const yoga = createApp(services, {
    ...config,
    logger,
    ...(emulator && config.env !== 'production'
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

  const stopReloading = config.register?.file && reloadTenantsOnChange(config.register.file.path, services);

  shutdownOnSignals({
    serving,
    deadlineMs: config.shutdownDeadlineMs,
    // A purchase or creation at the register is never cut by the deadline: it ends by its own.
    mustFinish: { inFlight: () => [...services.inflight.values()], maxMs: services.transport.timeouts.deadlineMs },
    logger,
    close: async () => {
      stopReloading?.();
      await services.close();
      await emulator?.close();
    },
  });
}

/**
 * The tenants file read again on SIGHUP and when it changes: a file that validates replaces the
 * callers at once (a revoked key is refused on its next request); one that does not changes
 * nothing, and the log and the metrics say why and which version still runs. The settings are
 * read again with it (the same environment), so the file is checked exactly as at start.
 */
function reloadTenantsOnChange(path: string, services: RunningServices): () => void {
  return reloadOnChange(path, () => {
    const running = services.callersVersion?.version ?? 'none';
    let register: NonNullable<AppConfig['register']>;
    try {
      register = loadConfig().register!;
    } catch (error) {
      services.events.emit('tenantsFile', { outcome: 'refused', version: running, reason: (error as Error).message });
      return;
    }
    const version = register.file?.version ?? running;
    if (version === running) {
      services.events.emit('tenantsFile', { outcome: 'unchanged', version });
      return;
    }
    services.replaceCallers(
      {
        apiKeys: register.tenants,
        organisations: register.organisations,
        clients: register.clients,
        identityProviders: register.identityProviders,
      },
      version,
    );
    services.events.emit('tenantsFile', { outcome: 'applied', version, previous: running });
  });
}

applyV8Settings();
// Before the configuration is read: its own LOG_LEVEL when that is valid, else info.
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const logger = createLogger({ level: LEVELS.includes(process.env.LOG_LEVEL ?? '') ? process.env.LOG_LEVEL! : 'info' });
try {
  await main(loadConfig(), logger);
} catch (error) {
  // One line a person reads on stderr, and the same as one JSON line in the log; never a stack.
  const reason =
    error instanceof ConfigError ? error.message : `${(error as Error).name ?? 'Error'}: ${(error as Error).message ?? String(error)}`;
  process.stderr.write(`titlegraph cannot start: ${reason}\n`);
  logger.error({ event: 'start' }, `titlegraph cannot start: ${reason}`);
  exitProcess(1);
}
