/**
 * The tenants file changes under two running replicas (real processes, one register): each
 * serves the new file without a restart (a revoked key refused, a new key served), /ready and
 * the metrics say which version runs; a file that does not validate changes nothing and says so
 * in one log line; SIGHUP reads the file again on demand.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import { startEmulator } from '../../src/emulator';
import { tenantsFileVersion } from '../../src/config/tenants-file';
import { sha256Hex } from '../../src/services/callers';
import { type Child, EMBEDDED_ENV, spawnTs } from '../support/processes';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const key = (name: string, clientId = 'client-a', clientSecret = 'secret-a') => ({
  name,
  apiKeySha256: sha256Hex(`${name}-secret-key`),
  clientId,
  clientSecret,
  organisation: 'ORG-A',
});

/** Written as an operator's tooling does: a new file renamed over the old one. */
function writeAtomically(path: string, text: string): string {
  writeFileSync(`${path}.next`, text);
  renameSync(`${path}.next`, path);
  return tenantsFileVersion(text);
}

async function replica(registerUrl: string, tenantsFile: string): Promise<{ child: Child; origin: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-reload-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawnTs('src/start.ts', [], {
    ...EMBEDDED_ENV,
    PORT: '0',
    DATA_DIR: dataDir,
    REGISTER_BASE_URL: registerUrl,
    TITLEGRAPH_TENANTS_FILE: tenantsFile,
    DOWNLOAD_LINK_SECRET: 'reload-test-secret-of-at-least-32-chars',
  });
  cleanups.push(() => child.stop('SIGKILL'));
  const [, port] = await child.waitFor(/"msg":"titlegraph: GraphQL at http:\/\/localhost:(\d+)\/graphql"/, 60_000);
  return { child, origin: `http://127.0.0.1:${port}` };
}

const viewer = async (origin: string, name: string) => {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${name}-secret-key` },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  });
  return response.status === 200 ? ((await response.json()) as { data: { viewer: { id: string } } }).data.viewer.id : response.status;
};
const readyVersion = async (origin: string) =>
  ((await (await fetch(`${origin}/ready`)).json()) as { tenantsFile?: { version: string } }).tenantsFile?.version;
const metrics = async (origin: string) => (await fetch(`${origin}/metrics`)).text();

test('every replica serves a changed tenants file without a restart; a bad file changes nothing; SIGHUP reads it again', async () => {
  const emulator = await startEmulator({ port: 0 });
  cleanups.push(() => emulator.close());
  const folder = mkdtempSync(join(tmpdir(), 'titlegraph-tenants-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'tenants.json');
  const first = writeAtomically(file, JSON.stringify({ tenants: [key('leaving'), key('staying', 'client-a2', 'secret-a2')] }));
  const replicas = [await replica(emulator.url, file), await replica(emulator.url, file)];
  for (const { origin } of replicas) {
    expect(await viewer(origin, 'leaving')).toBe('key:leaving');
    expect(await readyVersion(origin)).toBe(first);
  }

  const second = writeAtomically(file, JSON.stringify({ tenants: [key('arriving'), key('staying', 'client-a2', 'secret-a2')] }));
  for (const { origin } of replicas) {
    await vi.waitFor(async () => expect(await viewer(origin, 'arriving')).toBe('key:arriving'), { timeout: 10_000, interval: 100 });
    expect(await viewer(origin, 'leaving')).toBe(401);
    expect(await viewer(origin, 'staying')).toBe('key:staying');
    expect(await readyVersion(origin)).toBe(second);
    const text = await metrics(origin);
    expect(text).toContain(`titlegraph_tenants_file_info{version="${second}"} 1`);
    expect(text).not.toContain(`version="${first}"`);
    expect(text).toContain('titlegraph_tenants_file_reloads_total{outcome="applied"} 1');
  }

  // A file that does not validate: one line saying why, and the running set stays.
  writeAtomically(file, JSON.stringify({ tenants: [{ ...key('arriving'), name: 'not a key id' }] }));
  for (const { child, origin } of replicas) {
    await child.waitFor(/tenants file not reloaded, version \w+ still runs: .*tenants\.0\.name: must be 1 to 64 letters/, 10_000);
    expect(await viewer(origin, 'arriving')).toBe('key:arriving');
    expect(await readyVersion(origin)).toBe(second);
    expect(await metrics(origin)).toContain('titlegraph_tenants_file_reloads_total{outcome="refused"} 1');
  }

  // SIGHUP: the file read again on demand (here the bad one, still refused; then a good one).
  const [{ child, origin }] = replicas as [{ child: Child; origin: string }];
  const refusedBefore = (child.output().match(/tenants file not reloaded/g) ?? []).length;
  child.process.kill('SIGHUP');
  await vi.waitFor(() => expect((child.output().match(/tenants file not reloaded/g) ?? []).length).toBe(refusedBefore + 1), {
    timeout: 5_000,
  });
  expect(child.process.exitCode).toBeNull();
  expect(await viewer(origin, 'arriving')).toBe('key:arriving');
}, 120_000);
