/**
 * The metrics table of docs/operations.md names exactly the metrics a scrape of the service
 * exposes (besides prom-client's process and Node.js ones): a metric added, renamed or removed
 * fails here until the table follows, so dashboards are never built from a row that is gone.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { docPage } from '../support/docs';
import { startHttpService, type HttpService } from '../support/harness';

let svc: HttpService;
beforeAll(async () => {
  svc = await startHttpService();
});
afterAll(async () => {
  await svc?.stop();
});

/** The metric names of the rows of the table under "Metrics (besides prom-client's ...)". */
function documented(): string[] {
  const page = docPage('operations');
  const start = page.indexOf('| metric | labels | what |');
  expect(start, 'docs/operations.md has a metrics table').toBeGreaterThan(-1);
  const rows = page.slice(start).split('\n').slice(2);
  const table = rows.slice(
    0,
    rows.findIndex((line) => !line.startsWith('|')),
  );
  return table.flatMap((row) => [...row.split('|')[1]!.matchAll(/`(titlegraph_\w+)`/g)].map((m) => m[1]!)).sort();
}

test('the metrics table of docs/operations.md lists every titlegraph_ metric a scrape exposes, and no other', async () => {
  const text = await (await fetch(`${svc.origin}/metrics`)).text();
  const exposed = [...text.matchAll(/^# TYPE (titlegraph_\w+) /gm)].map((m) => m[1]!).sort();
  expect(exposed.length).toBeGreaterThan(10);
  expect(documented()).toEqual(exposed);
});
