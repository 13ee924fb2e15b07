/**
 * One service replica for the multi-process tests: createServices on the PostgreSQL
 * idempotency store + createApp, listening on 127.0.0.1 port 0. Prints `replica listening on
 * <port>` once ready; SIGTERM closes it and exits 0.
 * Usage: tsx test/support/replica.ts '{"registerBaseUrl":"…","databaseUrl":"…"}'
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/server/app';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { createServices } from '../../src/services/create-services';
import { serviceOptions } from './service-options';

const { registerBaseUrl, databaseUrl } = JSON.parse(process.argv[2] ?? '{}') as { registerBaseUrl: string; databaseUrl: string };
const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-replica-'));
const idempotency = new PgIdempotencyStore({ connectionString: databaseUrl });
await idempotency.ready();
const services = createServices({ ...serviceOptions(registerBaseUrl, dataDir, { databaseUrl }), idempotency });
const server = createServer(createApp(services, { graphiql: false }));
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
console.log(`replica listening on ${(server.address() as AddressInfo).port}`);

process.once('SIGTERM', async () => {
  await new Promise<void>((ok) => {
    server.close(() => ok());
    server.closeIdleConnections();
  });
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
