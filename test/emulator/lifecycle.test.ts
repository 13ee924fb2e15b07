import { describe, expect, it, onTestFinished } from 'vitest';
import { startEmulator } from '../../src/emulator/index';

describe('startEmulator / close', () => {
  it('starts on an ephemeral port with the documented addresses', async () => {
    const a = await startEmulator();
    const b = await startEmulator({ host: '127.0.0.1', port: 0 });
    try {
      expect(a.port).toBeGreaterThan(0);
      expect(a.port).not.toBe(b.port);
      expect(a.origin).toBe(`http://127.0.0.1:${a.port}`);
      expect(a.url).toBe(`${a.origin}/v1`);
      expect((await fetch(`${a.url}/openapi.json`)).status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // close() is idempotent and the port is really released.
    await a.close();
    await expect(fetch(`${a.url}/openapi.json`)).rejects.toThrow();
  });

  it('refuses nonsensical options', async () => {
    await expect(startEmulator({ dailyQuota: -1 })).rejects.toThrow(/dailyQuota/);
    await expect(startEmulator({ tokenTtlSeconds: 0 })).rejects.toThrow(/tokenTtlSeconds/);
    await expect(startEmulator({ fees: { TITLE_DATA_AND_PLANS: '3' } })).rejects.toThrow(/fee/);
  });

  it('wraps the base time source in a controllable clock', async () => {
    let base = new Date('2025-01-01T00:00:00Z');
    const emu = await startEmulator({ now: () => base });
    onTestFinished(() => emu.close());
    expect(emu.clock.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
    emu.clock.advance(60_000);
    base = new Date('2025-01-01T00:00:10Z');
    expect(emu.clock.now().toISOString()).toBe('2025-01-01T00:01:10.000Z');
    emu.clock.set(new Date('2025-07-01T12:00:00Z'));
    base = new Date('2025-01-01T00:00:20Z');
    expect(emu.clock.now().toISOString()).toBe('2025-07-01T12:00:10.000Z');
    emu.clock.reset();
    expect(emu.clock.now()).toEqual(base);
  });
});
