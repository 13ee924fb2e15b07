/**
 * Test fixtures: a fresh register emulator on port 0 and the service in front of it, called
 * through `yoga.fetch` (real Request/Response, real HTTP to the emulator).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type GraphQLFormattedError } from 'graphql';
import { onTestFinished, test as base } from 'vitest';
import { createApp, type AppOptions } from '../../src/server/app';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator';
import { createServices, type RunningServices } from '../../src/services/create-services';
import { mergeOverrides, serviceOptions, startConfig, type ServiceOverrides } from './service-options';

export type { ServiceOverrides };

export interface GqlResult<R> {
  status: number;
  data?: R | null;
  errors?: readonly GraphQLFormattedError[];
}

export interface Service {
  emulator: Emulator;
  services: RunningServices;
  dataDir: string;
  yoga: ReturnType<typeof createApp>;
  /** Sends a typed document as `key` (default dev-key-a; null sends no credentials). */
  gql<R, V>(document: TypedDocumentNode<R, V>, variables?: V, key?: string | null): Promise<GqlResult<R>>;
  /** GET a path of the service, or an absolute link it gave (e.g. a downloadUrl), as `key`. */
  get(path: string, key?: string | null): Promise<Response>;
  /** Closes this service and starts another on the same data folder (a restart); returns the handle to use from then on. */
  restart(options?: ServiceOverrides): Promise<Service>;
}

export function authHeader(key: string | null | undefined): Record<string, string> {
  return key === null ? {} : { authorization: `Bearer ${key ?? 'dev-key-a'}` };
}

function serviceOn(emulator: Emulator, dataDir: string, options: ServiceOverrides = {}, appOptions: AppOptions = {}): Service {
  const services = createServices(serviceOptions(emulator.url, dataDir, options));
  const { graphiql, hardening, jit } = startConfig();
  const yoga = createApp(services, { graphiql, hardening, jit, ...appOptions });
  const service: Service = {
    emulator,
    services,
    dataDir,
    yoga,
    async gql(document, variables, key) {
      const response = await yoga.fetch('http://titlegraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...authHeader(key) },
        body: JSON.stringify({ query: print(document), variables }),
      });
      const body = (await response.json()) as { data?: never; errors?: GraphQLFormattedError[] };
      return { status: response.status, ...body };
    },
    get: (path, key) =>
      Promise.resolve(yoga.fetch(/^https?:/.test(path) ? path : `http://titlegraph.test${path}`, { headers: authHeader(key) })),
    async restart(more) {
      await services.close();
      return serviceOn(emulator, dataDir, mergeOverrides(options, more), appOptions);
    },
  };
  return service;
}

export async function startService(
  emulatorOptions: EmulatorOptions = {},
  overrides: ServiceOverrides = {},
  appOptions: AppOptions = {},
): Promise<Service & { stop(): Promise<void> }> {
  const emulator = await startEmulator({ port: 0, ...emulatorOptions });
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-test-'));
  return stableHandle(serviceOn(emulator, dataDir, overrides, appOptions), async () => {
    await emulator.close().catch(() => undefined); // a test may have closed it already
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/** startService, stopped when the current test ends (passed or failed), so the body needs no try/finally. Call it inside a test. */
export async function serviceForTest(
  emulatorOptions: EmulatorOptions = {},
  overrides: ServiceOverrides = {},
  appOptions: AppOptions = {},
): Promise<Service & { stop(): Promise<void> }> {
  const svc = await startService(emulatorOptions, overrides, appOptions);
  onTestFinished(() => svc.stop());
  return svc;
}

/**
 * The one handle a test holds: `restart()` closes the running services, starts the next ones
 * and returns this same handle, now speaking to them; `stop()` closes whichever is running.
 * (Restarting through an older handle would otherwise close a service already closed and leave
 * the running one open.)
 */
function stableHandle(first: Service, cleanUp: () => Promise<void>): Service & { stop(): Promise<void> } {
  let current = first;
  const handle: Service & { stop(): Promise<void> } = {
    ...first,
    async restart(more?: ServiceOverrides) {
      current = await current.restart(more);
      Object.assign(handle, current, { restart: handle.restart, stop: handle.stop });
      return handle;
    },
    async stop() {
      await current.services.close();
      await cleanUp();
    },
  };
  return handle;
}

/** Another replica in front of the same emulator: its own services and data folder (share a database through `options`). */
export function replicaOf(svc: Service, options: ServiceOverrides = {}): Service & { stop(): Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-replica-'));
  return stableHandle(serviceOn(svc.emulator, dataDir, options), async () => rmSync(dataDir, { recursive: true, force: true }));
}

/** replicaOf, stopped when the current test ends (passed or failed), before the service it was made from if that came first. Call it inside a test. */
export function replicaForTest(svc: Service, options: ServiceOverrides = {}): Service & { stop(): Promise<void> } {
  const replica = replicaOf(svc, options);
  onTestFinished(() => replica.stop());
  return replica;
}

/** `test` with a fresh emulator and service per test. */
export const test = base.extend<{ svc: Service }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest fixture signature
  svc: async ({}, use) => {
    const svc = await startService();
    await use(svc);
    await svc.stop();
  },
});

let keyCounter = 0;
/** A fresh idempotency key per call. */
export const newKey = (label = 'k') => `${label}-${process.pid}-${Date.now()}-${++keyCounter}`;
