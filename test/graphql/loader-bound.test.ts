/**
 * The loaders' bound on register calls in flight (REGISTER_CONCURRENCY): never more than the
 * bound at once, the first load of a request included (it starts at once, outside any queue),
 * and the whole bound again once that first load has ended. A scripted register client counts
 * the calls in flight and ends them when the test says.
 */
import { expect, test, vi } from 'vitest';
import { createLoaders } from '../../src/graphql/loaders';
import type { RegisterClient } from '../../src/register/client';

function scriptedRegister() {
  let inFlight = 0;
  let most = 0;
  const ends: (() => void)[] = [];
  const register = {
    titleSummary(titleNumber: string) {
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise((resolve) =>
        ends.push(() => {
          inFlight--;
          resolve({ data: { titleNumber } });
        }),
      );
    },
  } as unknown as RegisterClient;
  return { register, inFlight: () => inFlight, most: () => most, endOldest: () => ends.shift()!() };
}

test.for([1, 2, 3])('at most %i calls in flight, whatever the order they end in', async (concurrency) => {
  const r = scriptedRegister();
  const loaders = createLoaders(r.register, concurrency, {});
  const loads = [loaders.titleSummary.load('T0')];
  await vi.waitFor(() => expect(r.inFlight()).toBe(1));
  for (let i = 1; i <= 5; i++) loads.push(loaders.titleSummary.load(`T${i}`));
  await vi.waitFor(() => expect(r.inFlight()).toBe(concurrency));
  // The first load ends first: its slot goes to the queue, which then runs the whole bound.
  for (let ended = 1; ended <= 6; ended++) {
    r.endOldest();
    const left = 6 - ended;
    await vi.waitFor(() => expect(r.inFlight()).toBe(Math.min(concurrency, left)));
  }
  expect((await Promise.all(loads)).map((s) => s?.titleNumber)).toEqual(['T0', 'T1', 'T2', 'T3', 'T4', 'T5']);
  expect(r.most()).toBe(concurrency);
});

test('loads one after another each start at once, with no queue between them', async () => {
  const r = scriptedRegister();
  const loaders = createLoaders(r.register, 4, {});
  for (const titleNumber of ['A1', 'A2', 'A3']) {
    const load = loaders.titleSummary.load(titleNumber);
    await vi.waitFor(() => expect(r.inFlight()).toBe(1));
    r.endOldest();
    expect((await load)?.titleNumber).toBe(titleNumber);
  }
  expect(r.most()).toBe(1);
});
