/**
 * A database outage is one episode for the operator: told when the first refusal comes and when
 * work goes through again, and a statement sent before the outage began, answered after it, is no
 * sign that it is over (a connection the outage had not reached yet): it ends nothing.
 */
import { expect, test } from 'vitest';
import { DatabaseUnavailableError } from '../../src/storage/database-unavailable';
import { type OutageEvent, OutageEpisodes } from '../../src/storage/outage-episodes';

test('one episode per outage; an answer to a statement sent before it began does not end it', () => {
  let now = 1_000;
  const episodes = new OutageEpisodes(() => now);
  episodes.quietMs = 0;
  const told: OutageEvent['kind'][] = [];
  episodes.on((event) => told.push(event.kind));

  const sentBefore = episodes.stamp();
  now = 1_010;
  episodes.refused(new DatabaseUnavailableError(new Error('terminated')));
  episodes.refused(new DatabaseUnavailableError(new Error('terminated')));
  now = 1_011;
  episodes.worked(sentBefore);
  expect(told).toEqual(['outage']);
  expect(episodes.working).toBe(false);

  const sentAfter = episodes.stamp();
  now = 1_500;
  episodes.worked(sentAfter);
  expect(told).toEqual(['outage', 'recovered']);
  expect(episodes.working).toBe(true);
});
