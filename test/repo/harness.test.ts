/** The test harness itself: a restart leaves one running service, whichever handle the test kept. */
import { expect, test } from 'vitest';
import { startService } from '../support/harness';

test('restart() closes the running service and returns the handle that speaks to the next; stop() closes the last', async () => {
  const svc = await startService();
  const first = svc.services;
  const again = await svc.restart();
  expect(again).toBe(svc);
  const second = svc.services;
  expect(second).not.toBe(first);
  expect(first.transport.closed).toBe(true);
  expect(second.transport.closed).toBe(false);
  await again.restart();
  const third = svc.services;
  expect(second.transport.closed).toBe(true);
  const answer = await svc.get('/health');
  expect(answer.status).toBe(200);
  await svc.stop();
  expect(third.transport.closed).toBe(true);
});
