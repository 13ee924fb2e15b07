/**
 * The routes beside GraphQL that only read share one method rule: GET and HEAD are answered (a
 * HEAD without a body), any other method is 405 with `Allow: GET, HEAD`, and nothing is fetched.
 */
import { describe, expect, test } from 'vitest';
import { OrderTitleDocumentMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

/** A service with a document ordered, and a way to send any method to each read-only route. */
async function readOnlyRoutes() {
  const svc = await serviceForTest();
  const ordered = await svc.gql(
    OrderTitleDocumentMutation,
    { fas: '5555', input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: newKey('read-only') } },
    'dev-key-b',
  );
  const link = new URL(ordered.data!.orderTitleDocument.document!.downloadUrl);
  const routes = {
    '/ready': '/ready',
    '/metrics': '/metrics',
    '/downloads': link.pathname + link.search,
    '/statements.csv': '/statements.csv?from=2026-03-10&to=2026-03-10',
  };
  const send = (path: string, method: string) =>
    svc.yoga.fetch(`http://titlegraph.test${path}`, { method, headers: { authorization: 'Bearer dev-key-b' } });
  return { svc, routes: Object.entries(routes), send };
}

describe('read-only routes', () => {
  test('/ready, /metrics, /downloads and /statements.csv: 405 with Allow for DELETE, PUT and POST, and nothing fetched', async () => {
    const { svc, routes, send } = await readOnlyRoutes();
    for (const [route, path] of routes) {
      for (const method of ['DELETE', 'PUT', 'POST']) {
        const refused = await send(path, method);
        expect(refused.status, `${method} ${route}`).toBe(405);
        expect(refused.headers.get('allow'), `${method} ${route}`).toBe('GET, HEAD');
      }
    }
    expect(svc.emulator.calls.count({ route: 'downloadDocument' })).toBe(0);
  });

  test('/ready, /metrics, /downloads and /statements.csv: HEAD answers as GET does, without a body', async () => {
    const { routes, send } = await readOnlyRoutes();
    for (const [route, path] of routes) {
      const get = await send(path, 'GET');
      const head = await send(path, 'HEAD');
      expect(get.status, route).toBe(200);
      expect(head.status, route).toBe(200);
      expect(head.headers.get('content-type'), route).toBe(get.headers.get('content-type'));
      expect(await head.text(), route).toBe('');
      await get.arrayBuffer();
    }
  });
});
