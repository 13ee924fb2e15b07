/**
 * The one way tests start a service: a fresh register emulator on port 0 and the service in front
 * of it, from one options object (`ServiceTestOptions`: what the test changes of the emulator, the
 * services' settings and the app). `serviceForTest` lives for one test, `startService` for a file
 * (stopped in afterAll); both are called through `yoga.fetch` (real Request/Response, real HTTP to
 * the emulator). `httpServiceForTest` / `startHttpService` serve the same over a real port, as a
 * gateway, a browser or a scraper sees it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type GraphQLFormattedError } from 'graphql';
import { onTestFinished } from 'vitest';
import { createApp, type AppOptions } from '../../src/server/app';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator';
import { createServices, type RunningServices } from '../../src/services/create-services';
import { closeServer, listen } from './http-service';
import { mergeOverrides, serviceOptions, startConfig, type ServiceOverrides } from './service-options';

export type { ServiceOverrides };

/** What a test changes of the service it starts; each part defaults to what a start with no settings gets. */
export interface ServiceTestOptions {
  /** The register emulator's options (latency, quota, fixture sizes). */
  emulator?: EmulatorOptions;
  /** The services' settings, section by section (`ServiceOverrides`). */
  services?: ServiceOverrides;
  /** The app's options (createApp), on top of the start's GraphiQL, hardening and jit. */
  app?: AppOptions;
}

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

/** A service for a whole file: start it in beforeAll and `stop()` it in afterAll. */
export async function startService(options: ServiceTestOptions = {}): Promise<Service & { stop(): Promise<void> }> {
  const emulator = await startEmulator({ port: 0, ...options.emulator });
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-test-'));
  return stableHandle(serviceOn(emulator, dataDir, options.services, options.app), async () => {
    await emulator.close().catch(() => undefined); // a test may have closed it already
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/** startService, stopped when the current test ends (passed or failed), so the body needs no try/finally. Call it inside a test. */
export async function serviceForTest(options: ServiceTestOptions = {}): Promise<Service & { stop(): Promise<void> }> {
  const svc = await startService(options);
  onTestFinished(() => svc.stop());
  return svc;
}

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

/** startService served by node:http on a port of 127.0.0.1 (GraphiQL off unless `app` turns it on), for a whole file. */
export async function startHttpService(options: ServiceTestOptions = {}): Promise<HttpService> {
  const svc = await startService({ ...options, app: { graphiql: false, ...options.app } });
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

/** startHttpService, stopped when the current test ends (passed or failed). Call it inside a test. */
export async function httpServiceForTest(options: ServiceTestOptions = {}): Promise<HttpService> {
  const svc = await startHttpService(options);
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

let keyCounter = 0;
/** A fresh idempotency key per call. */
export const newKey = (label = 'k') => `${label}-${process.pid}-${Date.now()}-${++keyCounter}`;
