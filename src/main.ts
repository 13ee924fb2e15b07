/**
 * Entry point (`npm start`): reads configuration, starts the embedded register emulator when
 * no register is configured, and serves the GraphQL API.
 */
import { createServer } from 'node:http';
import { createApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { startEmulator, type Emulator } from './emulator';
import { createServices } from './services';
import { DEV_TENANTS } from './tenants';

async function main(config: AppConfig) {
  let emulator: Emulator | undefined;
  if (!config.register) {
    emulator = await startEmulator({
      host: config.emulator.host,
      port: config.emulator.port,
      latencyMs: config.emulator.latencyMs,
    });
  }
  const services = createServices({
    registerBaseUrl: config.register?.baseUrl ?? emulator!.url,
    tenants: config.register?.tenants ?? DEV_TENANTS,
    ...(config.register ? {} : { anonymousTenant: 'dev-key-a' }),
    dataDir: config.dataDir,
    concurrency: config.concurrency,
    referenceListTtlMs: config.referenceListTtlMs,
  });
  const yoga = createApp(services, {
    graphiql: config.graphiql,
    corsOrigins: config.corsOrigins,
    observability: {
      metrics: config.observability.metrics && { defaultMetrics: true },
      readiness: { timeoutMs: config.observability.readyTimeoutMs },
      tracing: config.observability.tracing,
    },
    ...(emulator
      ? {
          graphiqlNote:
            'Embedded register emulator: requests without credentials act as dev-key-a.\nOther callers: add the header {"Authorization": "Bearer dev-key-a2"} or dev-key-b.',
        }
      : {}),
  });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`titlegraph: GraphQL at http://localhost:${port}/graphql`);
  console.log(emulator ? `register: embedded emulator at ${emulator.url}` : 'register: external (REGISTER_BASE_URL)');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Stop accepting, let in-flight requests (and the charges they record) finish, then exit.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await services.close();
    await emulator?.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

try {
  await main(loadConfig());
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : 'titlegraph failed to start', error instanceof ConfigError ? '' : error);
  process.exit(1);
}
