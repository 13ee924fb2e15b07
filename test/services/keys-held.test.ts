/**
 * The service keeps no API key in clear, not even in memory: a key is found by its SHA-256 on
 * every request. After callers authenticated, the caller directory, walked through its maps,
 * sets and objects, holds the keys' hashes and never the keys.
 */
import { expect, test } from 'vitest';
import { RegisterTransport } from '../../src/register/client';
import { sha256Hex, CallerDirectory } from '../../src/services/callers';

/** Every string reachable from `root` through own properties, Map keys and values, Set and array members. */
function stringsIn(root: unknown): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'string') {
      found.add(value);
      return;
    }
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 8) return;
    seen.add(value);
    if (value instanceof Map) {
      for (const [k, v] of value) {
        visit(k, depth + 1);
        visit(v, depth + 1);
      }
    } else if (value instanceof Set || Array.isArray(value)) for (const v of value) visit(v, depth + 1);
    else for (const key of Reflect.ownKeys(value)) visit((value as Record<string | symbol, unknown>)[key], depth + 1);
  };
  visit(root, 0);
  return found;
}

test('after many requests with a key, the directory holds its hash and never the key', async () => {
  const key = 'k3y-0f-a-firm-Zx81';
  const transport = new RegisterTransport({ baseUrl: 'http://127.0.0.1:9/v1' });
  const directory = new CallerDirectory(transport, [
    { name: 'firm-key', apiKeySha256: sha256Hex(key), clientId: 'client-a', clientSecret: 'secret-a' },
  ]);
  for (let i = 0; i < 3; i++) {
    const auth = await directory.authenticate(`Bearer ${key}`);
    expect(auth.ok && auth.caller.id).toBe('key:firm-key');
  }
  const held = stringsIn(directory);
  expect(held.has(sha256Hex(key))).toBe(true);
  expect([...held].filter((s) => s.includes(key))).toEqual([]);
  await transport.close();
});
