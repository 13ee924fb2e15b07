/** /health (alive) and /ready (the register answers, the database takes writes), over real HTTP. */
import { afterEach, describe, expect, test } from 'vitest';
import { startHttpService, type HttpService } from '../support/harness';

let svc: HttpService | undefined;
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

const start = () => startHttpService({ app: { observability: { readiness: { cacheMs: 0, timeoutMs: 300 } } } });

describe('/health', () => {
  test('is 200 while the process runs, even with the register gone', async () => {
    svc = await start();
    expect((await fetch(`${svc.origin}/health`)).status).toBe(200);
    await svc.emulator.close();
    expect((await fetch(`${svc.origin}/health`)).status).toBe(200);
  });
});

describe('/ready', () => {
  test('is 200 when the register answers, 503 once it is closed', async () => {
    svc = await start();
    const ready = await fetch(`${svc.origin}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    // The token route, asked without credentials: the register's refusal proves it is the register.
    expect(await ready.json()).toEqual({
      ready: true,
      register: { reachable: true, status: 401, breaker: 'closed' },
      // The embedded database (DATA_DIR) takes writes (test/server/disk-outage.test.ts: when its disk is full).
      database: { reachable: true },
      // The ids of the download link keys (a random one of this process here): never the keys.
      downloadLinks: { signingKeyId: expect.stringMatching(/^[0-9a-f]{8}$/), keyIds: [expect.stringMatching(/^[0-9a-f]{8}$/)] },
    });
    expect(svc.emulator.calls.count({ route: 'token' })).toBe(1);
    expect(svc.emulator.calls.count({ route: 'token', status: 200 })).toBe(0);

    await svc.emulator.close();
    const down = await fetch(`${svc.origin}/ready`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      ready: false,
      register: { reachable: false, error: 'unreachable', breaker: 'closed' },
      database: { reachable: true },
      downloadLinks: expect.anything(),
    });
  });

  test('is 503 when the register answers 5xx or not within the timeout', async () => {
    svc = await start();
    svc.emulator.faults.inject('token', { kind: 'status', status: 503 }, 1);
    const failing = await fetch(`${svc.origin}/ready`);
    expect(failing.status).toBe(503);
    expect(await failing.json()).toMatchObject({ ready: false, register: { reachable: false, status: 503 } });

    // The token route never answers: only the probe's own timeout (300 ms here) ends the wait.
    svc.emulator.faults.inject('token', { kind: 'hang' }, 1);
    const hung = await fetch(`${svc.origin}/ready`);
    expect(hung.status).toBe(503);
    expect(await hung.json()).toMatchObject({ register: { reachable: false, error: 'timeout' } });

    expect((await fetch(`${svc.origin}/ready`)).status).toBe(200);
  });

  test('probes are shared and cached: a burst of probes is one register call', async () => {
    svc = await startHttpService();
    const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${svc!.origin}/ready`).then((r) => r.status)));
    expect(statuses).toEqual(Array(10).fill(200));
    expect((await fetch(`${svc.origin}/ready`, { method: 'HEAD' })).status).toBe(200);
    expect(svc.emulator.calls.count({ route: 'token' })).toBe(1);
  });

  test('is 503 when the token route answers 404: REGISTER_BASE_URL points somewhere that is not the register', async () => {
    svc = await start();
    svc.emulator.faults.inject('token', { kind: 'status', status: 404 }, 1);
    const lost = await fetch(`${svc.origin}/ready`);
    expect(lost.status).toBe(503);
    expect(await lost.json()).toMatchObject({ ready: false, register: { reachable: false, status: 404 } });
  });

  test('is 503 once the service is shutting down (its register transport closed)', async () => {
    svc = await start();
    await svc.services.transport.close();
    const closing = await fetch(`${svc.origin}/ready`);
    expect(closing.status).toBe(503);
    expect(await closing.json()).toMatchObject({ register: { reachable: false, error: 'closed' } });
  });
});
