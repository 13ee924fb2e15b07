import { describe, expect, it } from 'vitest';
import { padPdf, renderPlan } from '../../src/emulator/pdf-plan';
import { findTitle } from '../../src/emulator/seed';

async function collect(body: ReturnType<typeof padPdf>): Promise<{ bytes: Buffer; chunks: number; largest: number }> {
  const parts: Uint8Array[] = [];
  for await (const c of body.chunks()) parts.push(c);
  return { bytes: Buffer.concat(parts), chunks: parts.length, largest: Math.max(...parts.map((p) => p.length)) };
}

describe('padPdf (the LAN50 large plan)', async () => {
  const plan = findTitle('LAN50')!.plans[0]!;
  const base = await renderPlan('LAN50', 0, plan);

  it('hits the exact size, also across digit boundaries of the offsets', async () => {
    for (const size of [base.length + 200, 9_999, 10_000, 10_001, 99_999, 100_000, 100_001, 1_000_000]) {
      if (size < base.length + 200) continue;
      const padded = padPdf(base, size);
      expect(padded.length, String(size)).toBe(size);
      const { bytes } = await collect(padded);
      expect(bytes.length).toBe(size);
      const tail = bytes.subarray(-200).toString('latin1');
      const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(tail)![1]);
      expect(bytes.subarray(startxref, startxref + 4).toString('latin1')).toBe('xref');
    }
  });

  it('never builds one giant buffer: 50 MiB come in chunks of at most 64 KiB', async () => {
    const padded = padPdf(base, 50 * 1024 * 1024);
    expect(padded.length).toBe(50 * 1024 * 1024);
    let total = 0;
    let largest = 0;
    for await (const c of padded.chunks()) {
      total += c.length;
      largest = Math.max(largest, c.length);
    }
    expect(total).toBe(50 * 1024 * 1024);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
  });

  it('falls back to the smallest valid file when asked for less', async () => {
    const padded = padPdf(base, 10);
    expect(padded.length).toBeGreaterThan(base.length);
    expect((await collect(padded)).bytes.length).toBe(padded.length);
  });
});
