/**
 * Ecosystem fixtures: the register emulator on port 0 and titlegraph served over real HTTP
 * (node:http createServer(yoga) on port 0), as a gateway, a browser or a scraper sees it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { AppOptions, createApp } from '../../src/server/app';
import type { Emulator, EmulatorOptions } from '../../src/emulator';
import type { RunningServices } from '../../src/services/create-services';
import { startService, type ServiceOverrides } from './harness';

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
  options: { app?: AppOptions; emulator?: EmulatorOptions; services?: ServiceOverrides } = {},
): Promise<HttpService> {
  const svc = await startService(options.emulator, options.services, { graphiql: false, ...options.app });
  const server = createServer(svc.yoga);
  const origin = await listen(server);
  let stopped = false;
  return {
    origin,
    url: `${origin}/graphql`,
    emulator: svc.emulator,
    services: svc.services,
    yoga: svc.yoga,
    async stop() {
      if (stopped) return;
      stopped = true;
      await closeServer(server);
      await svc.stop();
    },
  };
}

/** startHttpService, stopped when the current test ends (passed or failed), so the body needs no try/finally. Call it inside a test. */
export async function httpServiceForTest(options: Parameters<typeof startHttpService>[0] = {}): Promise<HttpService> {
  const svc = await startHttpService(options);
  onTestFinished(() => svc.stop());
  return svc;
}

/** POST a GraphQL request over HTTP as dev-key-a (unless `headers` say otherwise). */
export async function postGraphQL(
  url: string,
  body: { query: string; variables?: Record<string, unknown>; operationName?: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      authorization: 'Bearer dev-key-a',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as never };
}
