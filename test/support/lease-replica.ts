/**
 * A service replica on PostgreSQL whose quota settings the test chooses (leases long and large
 * enough to be held when the process is killed): createServices + createApp on 127.0.0.1 port 0.
 * Prints `replica listening on <port>` once ready; it is meant to be killed.
 * Usage: tsx test/support/lease-replica.ts '{"registerBaseUrl":"…","databaseUrl":"…","quota":{…}}'
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/server/app';
import { createServices } from '../../src/services/create-services';
import type { QuotaPolicy } from '../../src/services/quota';
import { serviceOptions } from './service-options';

const { registerBaseUrl, databaseUrl, quota } = JSON.parse(process.argv[2] ?? '{}') as {
  registerBaseUrl: string;
  databaseUrl: string;
  quota: Partial<QuotaPolicy>;
};
const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-lease-replica-'));
const services = createServices(serviceOptions(registerBaseUrl, dataDir, { databaseUrl, quota }));
await services.opened();
const server = createServer(createApp(services, { graphiql: false }));
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
console.log(`replica listening on ${(server.address() as AddressInfo).port}`);
