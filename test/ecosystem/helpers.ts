/**
 * Ecosystem fixtures: the register emulator on port 0 and titlegraph served over real HTTP
 * (node:http createServer(yoga) on port 0), as a gateway, a browser or a scraper sees it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppOptions } from '../../src/app';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator';
import { createServices, type RunningServices, type ServiceOptions } from '../../src/services';
import { DEV_TENANTS } from '../../src/tenants';

export interface HttpService {
  /** e.g. http://127.0.0.1:54321 */
  origin: string;
  /** origin + /graphql */
  url: string;
  emulator: Emulator;
  services: RunningServices;
  yoga: ReturnType<typeof createApp>;
  stop(): Promise<void>;
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startHttpService(
  options: { app?: AppOptions; emulator?: EmulatorOptions; services?: Partial<ServiceOptions> } = {},
): Promise<HttpService> {
  const emulator = await startEmulator({ port: 0, ...options.emulator });
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-eco-'));
  const services = createServices({
    registerBaseUrl: emulator.url,
    tenants: DEV_TENANTS,
    anonymousTenant: 'dev-key-a',
    dataDir,
    referenceListTtlMs: 0,
    ...options.services,
  });
  const yoga = createApp(services, options.app);
  const server = createServer(yoga);
  const origin = await listen(server);
  let stopped = false;
  return {
    origin,
    url: `${origin}/graphql`,
    emulator,
    services,
    yoga,
    async stop() {
      if (stopped) return;
      stopped = true;
      await closeServer(server);
      await services.close();
      await emulator.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POST a GraphQL request over HTTP as dev-key-a (unless `headers` say otherwise). */
export async function postGraphQL(
  url: string,
  body: { query: string; variables?: Record<string, unknown>; operationName?: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: 'Bearer dev-key-a', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as never };
}
