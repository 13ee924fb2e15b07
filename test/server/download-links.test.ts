/**
 * Download links a browser can follow: absolute, signed for the client that got the file, no
 * Authorization needed; tampered or expired links are refused before anything is fetched.
 */
import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { logServiceEvents } from '../../src/observability/logging';
import { DownloadLinks, LINK_VALIDITY_MS } from '../../src/services/downloads/links';
import { OrderTitleDocumentMutation, PurchaseTitlePlansMutation, TitleQuery } from '../support/documents';
import { parseMetrics } from '../support/prometheus';
import { newKey, replicaForTest, serviceForTest, type Service } from '../support/harness';

const SECRET = 'a-test-signing-key-of-at-least-32-characters';

async function order(svc: Service, key = 'dev-key-b', fas = '5555', idempotencyKey = newKey('link')) {
  const { data } = await svc.gql(
    OrderTitleDocumentMutation,
    { fas, input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey } },
    key,
  );
  return data!.orderTitleDocument.document!;
}

async function refusal(response: Response) {
  return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
}

/** A clock for the service's links that a test moves forward. */
function movableClock() {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    advance: (ms: number) => {
      offsetMs += ms;
    },
  };
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('signed download links', () => {
  test('absolute from PUBLIC_URL, and a plain GET with no Authorization streams the PDF as the client that ordered it', async () => {
    const svc = await serviceForTest({ services: { publicUrl: 'https://titlegraph.example.com/', downloadLinkSecret: SECRET } });
    const document = await order(svc);
    expect(document.downloadUrl).toMatch(
      /^https:\/\/titlegraph\.example\.com\/downloads\/titles\/MID15313\/documents\/[^?]+\?client=client-b&expires=\d+&(?:ends=day&)?kid=[0-9a-f]{8}&signature=/,
    );
    const link = new URL(document.downloadUrl);
    const response = await svc.get(link.pathname + link.search, null);
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    expect(svc.emulator.calls.count({ route: 'downloadDocument', clientId: 'client-b' })).toBe(1);
  });

  test('a link never outlives 15 minutes, nor the file’s own expiry', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const links = new DownloadLinks(SECRET, undefined, () => now);
    const file = { tenant: 'client-a', titleNumber: 'MID15313', kind: 'documents' as const, id: 'abc' };
    const expiresOf = (url: string) => Number(new URL(url).searchParams.get('expires')) * 1000;
    expect(expiresOf(links.link('http://x', file, new Date(now + 3_600_000)))).toBe(now + LINK_VALIDITY_MS);
    expect(expiresOf(links.link('http://x', file, new Date(now + 60_000)))).toBe(now + 60_000);
    const later = new DownloadLinks(SECRET, undefined, () => now + LINK_VALIDITY_MS + 1);
    expect(later.check(file, new URL(links.link('http://x', file, new Date(now + 3_600_000))).searchParams)).toMatchObject({
      ok: false,
      code: 'DOWNLOAD_LINK_EXPIRED',
    });
  });

  test('tampered links (signature, file, expiry or client changed), and expired ones, are refused with no register call', async () => {
    const clock = movableClock();
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET, downloadLinkClock: clock.now } });
    const document = await order(svc);
    const good = new URL(document.downloadUrl);
    const variants: [string, (u: URL) => void, string][] = [
      ['signature', (u) => u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`), 'DOWNLOAD_LINK_INVALID'],
      // the last character's low bits are base64 padding: this one decodes to the same bytes
      [
        'signature, last character',
        (u) => {
          const signature = u.searchParams.get('signature')!;
          u.searchParams.set('signature', signature.slice(0, -1) + BASE64URL[BASE64URL.indexOf(signature.at(-1)!) ^ 1]);
        },
        'DOWNLOAD_LINK_INVALID',
      ],
      ['signature removed', (u) => u.searchParams.set('signature', ''), 'DOWNLOAD_LINK_INVALID'],
      ['file', (u) => (u.pathname = u.pathname.replace(/documents\/.*/, 'documents/other-id')), 'DOWNLOAD_LINK_INVALID'],
      ['expiry', (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)), 'DOWNLOAD_LINK_INVALID'],
      ['expiry spelled otherwise', (u) => u.searchParams.set('expires', `0${u.searchParams.get('expires')}`), 'DOWNLOAD_LINK_INVALID'],
      ['client', (u) => u.searchParams.set('client', 'client-a'), 'DOWNLOAD_LINK_INVALID'],
      ['kind', (u) => (u.pathname = u.pathname.replace('/documents/', '/plans/')), 'DOWNLOAD_LINK_INVALID'],
    ];
    svc.emulator.calls.reset();
    for (const [what, change, code] of variants) {
      const url = new URL(good);
      change(url);
      const { status, body } = await refusal(await svc.get(url.pathname + url.search, 'dev-key-b'));
      expect({ what, status, code: body.error.code }).toEqual({ what, status: 403, code });
    }
    // the untouched link, once its expiry has come on the service's clock
    clock.advance(Number(good.searchParams.get('expires')) * 1000 - clock.now());
    const { status, body } = await refusal(await svc.get(good.pathname + good.search, null));
    expect([status, body.error.code]).toEqual([403, 'DOWNLOAD_LINK_EXPIRED']);
    expect(svc.emulator.calls.count({ route: 'downloadDocument' })).toBe(0);
    // …and a second before, it still works: the refusals above were the changes, not the link
    clock.advance(-1_000);
    expect((await svc.get(good.pathname + good.search, null)).status).toBe(200);
    expect(svc.emulator.calls.count({ route: 'downloadDocument', clientId: 'client-b' })).toBe(1);
  });

  test('a replay of the order gets a fresh link to the same document, which works when the first has expired', async () => {
    const clock = movableClock();
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET, downloadLinkClock: clock.now } });
    const key = newKey('replay-link');
    const first = await order(svc, 'dev-key-b', '5555', key);
    const firstLink = new URL(first.downloadUrl);
    clock.advance(Number(firstLink.searchParams.get('expires')) * 1000 - clock.now());
    // within the document's day, the refusal sends the caller to the replay that follows
    expect((await refusal(await svc.get(firstLink.pathname + firstLink.search, null))).body.error).toEqual({
      code: 'DOWNLOAD_LINK_EXPIRED',
      message: 'This download link has expired (links last 15 minutes): replay the order with the same idempotencyKey for a new one.',
    });
    const replay = await order(svc, 'dev-key-b', '5555', key);
    expect(replay.documentId).toBe(first.documentId);
    expect(svc.emulator.calls.count({ route: 'orderDocument' })).toBe(1); // a replay: not ordered again
    const replayLink = new URL(replay.downloadUrl);
    expect(Number(replayLink.searchParams.get('expires'))).toBeGreaterThan(Number(firstLink.searchParams.get('expires')));
    expect((await svc.get(replayLink.pathname + replayLink.search, null)).status).toBe(200);
  });

  test("another client's link downloads as that client only: a key sent with it changes nothing", async () => {
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET } });
    const link = new URL((await order(svc, 'dev-key-b')).downloadUrl);
    svc.emulator.calls.reset();
    const response = await svc.get(link.pathname + link.search, 'dev-key-a');
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(svc.emulator.calls.count({ route: 'downloadDocument', clientId: 'client-b' })).toBe(1);
    expect(svc.emulator.calls.count({ route: 'downloadDocument', clientId: 'client-a' })).toBe(0);
    // the same link claimed for the sender's own client is not signed for it
    link.searchParams.set('client', 'client-a');
    const { status, body } = await refusal(await svc.get(link.pathname + link.search, 'dev-key-a'));
    expect([status, body.error.code]).toEqual([403, 'DOWNLOAD_LINK_INVALID']);
    expect(svc.emulator.calls.count({ route: 'downloadDocument' })).toBe(1);
  });

  test('a link made by one replica works on another with the same key, not on one with another key', async () => {
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET } });
    const same = replicaForTest(svc, { downloadLinkSecret: SECRET });
    const other = replicaForTest(svc, { downloadLinkSecret: `${SECRET}-not-the-same` });
    const link = new URL((await order(svc)).downloadUrl);
    expect((await same.get(link.pathname + link.search, null)).status).toBe(200);
    expect((await refusal(await other.get(link.pathname + link.search, null))).body.error.code).toBe('DOWNLOAD_LINK_INVALID');
  });

  test("near the register's midnight: expiresAt is the register's, and the link ends with the file", async () => {
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET } });
    // the register 5 minutes before its midnight (London, winter), whatever our own clock says
    svc.emulator.clock.set(new Date('2026-01-15T23:55:00Z'));
    const document = await order(svc);
    expect(document.expiresAt).toBe('2026-01-16T00:00:00.000Z');
    const link = new URL(document.downloadUrl);
    const expiresIn = Number(link.searchParams.get('expires')) * 1000 - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000 + 1_000);
    expect((await svc.get(link.pathname + link.search, null)).status).toBe(200);
  });

  test('plans get signed links too', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(
      PurchaseTitlePlansMutation,
      { fas: '5555', input: { titleNumber: 'MID15313', idempotencyKey: newKey('plan-link') } },
      'dev-key-b',
    );
    for (const plan of data!.purchaseTitlePlans.plans) {
      const link = new URL(plan.downloadUrl);
      expect(link.searchParams.get('client')).toBe('client-b');
      expect((await svc.get(link.pathname + link.search, null)).status).toBe(200);
    }
  });

  test('after the London midnight, a replay and the old link both say the document expired with its day: order again with a new key', async () => {
    const clock = movableClock();
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET, downloadLinkClock: clock.now } });
    const orderWith = (idempotencyKey: string) =>
      svc.gql(
        OrderTitleDocumentMutation,
        { fas: '5555', input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey } },
        'dev-key-b',
      );
    svc.emulator.clock.set(new Date('2026-01-15T23:50:00Z'));
    const key = newKey('after-midnight');
    const first = (await orderWith(key)).data!.orderTitleDocument;
    expect(first.charges.length).toBeGreaterThan(0);
    const link = new URL(first.document!.downloadUrl);
    // cut short by the file's own end, and signed as such
    expect(link.searchParams.get('ends')).toBe('day');

    // past the register's midnight; the service learns the register's time from its next answer
    svc.emulator.clock.set(new Date('2026-01-16T00:01:00Z'));
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    clock.advance(Number(link.searchParams.get('expires')) * 1000 - clock.now());

    const replay = (await orderWith(key)).data!.orderTitleDocument;
    expect(replay.document).toBeNull();
    expect(replay.charges).toEqual(first.charges); // the original order's charges, never hidden
    expect(replay.userErrors).toEqual([
      {
        code: 'DOCUMENT_EXPIRED',
        message:
          'The document ordered with this idempotency key expired with its day (documents and plans last until midnight, London time): order it again with a new idempotencyKey. The charges shown are those of the original order.',
        field: ['input', 'idempotencyKey'],
      },
    ]);
    expect(svc.emulator.calls.count({ route: 'orderDocument' })).toBe(1);

    svc.emulator.calls.reset();
    const { status, body } = await refusal(await svc.get(link.pathname + link.search, null));
    expect({ status, ...body.error }).toEqual({
      status: 410,
      code: 'DOCUMENT_EXPIRED',
      message:
        'This document expired with its day (documents and plans last until midnight, London time): order it again with a new idempotencyKey.',
    });
    expect(svc.emulator.calls.count()).toBe(0);

    // what the answers say to do works: a new key orders it again, with a working link
    const again = (await orderWith(newKey('after-midnight-again'))).data!.orderTitleDocument;
    expect(again.userErrors).toEqual([]);
    const fresh = new URL(again.document!.downloadUrl);
    expect(fresh.searchParams.get('ends')).toBeNull();
    expect((await svc.get(fresh.pathname + fresh.search, null)).status).toBe(200);
  });

  test('plans too: after the London midnight a replay answers DOCUMENT_EXPIRED with its charges, and the old link 410', async () => {
    const clock = movableClock();
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET, downloadLinkClock: clock.now } });
    const buy = (idempotencyKey: string) =>
      svc.gql(PurchaseTitlePlansMutation, { fas: '5555', input: { titleNumber: 'MID15313', idempotencyKey } }, 'dev-key-b');
    svc.emulator.clock.set(new Date('2026-01-15T23:50:00Z'));
    const key = newKey('plans-after-midnight');
    const first = (await buy(key)).data!.purchaseTitlePlans;
    expect(first.plans.length).toBeGreaterThan(0);
    expect(first.charges.length).toBeGreaterThan(0);
    const link = new URL(first.plans[0]!.downloadUrl);
    svc.emulator.clock.set(new Date('2026-01-16T00:01:00Z'));
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    clock.advance(Number(link.searchParams.get('expires')) * 1000 - clock.now());

    const replay = (await buy(key)).data!.purchaseTitlePlans;
    expect(replay.plans).toEqual([]);
    expect(replay.charges).toEqual(first.charges);
    expect(replay.userErrors.map((e) => [e.code, e.message, e.field])).toEqual([
      [
        'DOCUMENT_EXPIRED',
        'The plans bought with this idempotency key expired with their day (documents and plans last until midnight, London time): buy them again with a new idempotencyKey. The charges shown are those of the original order.',
        ['input', 'idempotencyKey'],
      ],
    ]);
    const { status, body } = await refusal(await svc.get(link.pathname + link.search, null));
    expect([status, body.error.code, body.error.message]).toEqual([
      410,
      'DOCUMENT_EXPIRED',
      'This plan expired with its day (documents and plans last until midnight, London time): buy it again with a new idempotencyKey.',
    ]);
  });

  test('a link that ends with its day cannot pass for one that does not', () => {
    const now = Date.parse('2026-03-10T23:55:00Z');
    const links = new DownloadLinks(SECRET, undefined, () => now);
    const file = { tenant: 'client-a', titleNumber: 'MID15313', kind: 'documents' as const, id: 'abc' };
    const params = new URL(links.link('http://x', file, new Date(now + 5 * 60_000))).searchParams;
    expect(params.get('ends')).toBe('day');
    params.delete('ends');
    expect(links.check(file, params)).toMatchObject({ ok: false, code: 'DOWNLOAD_LINK_INVALID' });
  });

  test("the register refusing this service's sign-in on the way to the file: 502 REGISTER_AUTH_FAILED in our words, the file not fetched", async () => {
    const svc = await serviceForTest({ services: { downloadLinkSecret: SECRET } });
    const link = new URL((await order(svc)).downloadUrl);
    // The register forgets the token it gave, and then refuses a new sign-in.
    svc.emulator.clock.advance(301_000);
    svc.emulator.faults.inject(
      'token',
      { kind: 'status', status: 400, body: { code: 'INVALID_REQUEST', message: 'grant_type must be client_credentials' } },
      5,
    );
    const { status, body } = await refusal(await svc.get(link.pathname + link.search, null));
    expect(status).toBe(502);
    expect(body.error.code).toBe('REGISTER_AUTH_FAILED');
    expect(body.error.message).toMatch(/^The register refused this service's sign-in for your organisation, so nothing was sent to it/);
    expect(JSON.stringify(body)).not.toMatch(/grant_type|BAD_USER_INPUT/);
    expect(svc.emulator.calls.count({ route: 'downloadDocument', status: 200 })).toBe(0);
  });
});

describe('rotating DOWNLOAD_LINK_SECRET (docs/operations.md, Rotating DOWNLOAD_LINK_SECRET)', () => {
  const OLD = 'the-old-signing-key-of-at-least-32-characters';
  const NEW = 'the-new-signing-key-of-at-least-32-characters';

  async function orderedLink(svc: Service) {
    return new URL((await order(svc)).downloadUrl);
  }
  const follow = async (replica: Service, link: URL) => {
    const response = await replica.get(link.pathname + link.search, null);
    const status = response.status;
    await response.arrayBuffer();
    return status;
  };
  const keyIdOf = (secret: string) => new DownloadLinks(secret, undefined).signingKeyId;
  const ready = async (replica: Service) =>
    ((await (await replica.get('/ready', null)).json()) as { downloadLinks: unknown }).downloadLinks;
  const signingKeyMetric = async (replica: Service) =>
    parseMetrics(await (await replica.get('/metrics', null)).text()).filter((m) => m.name === 'titlegraph_download_link_signing_key_info');

  test('old, then old+new, then new+old, then new: every live link keeps working on every replica at every step', async () => {
    // Step 0: every replica on the old key.
    const a = await serviceForTest({ services: { downloadLinkSecret: OLD } });
    const b = replicaForTest(a, { downloadLinkSecret: OLD });
    const before = await orderedLink(a);
    expect(before.searchParams.get('kid')).toBe(keyIdOf(OLD));

    // Step 1: one replica at a time learns the new key, still signing with the old one.
    const b1 = replicaForTest(a, { downloadLinkSecret: `${OLD},${NEW}` });
    const step1 = await orderedLink(b1);
    expect(step1.searchParams.get('kid')).toBe(keyIdOf(OLD));
    for (const replica of [a, b, b1]) for (const link of [before, step1]) expect(await follow(replica, link)).toBe(200);

    // Step 2: once every replica knows it, they sign with the new key one at a time.
    const a2 = replicaForTest(a, { downloadLinkSecret: ` ${NEW} , ${OLD} ` });
    const step2 = await orderedLink(a2);
    expect(step2.searchParams.get('kid')).toBe(keyIdOf(NEW));
    for (const replica of [b1, a2]) for (const link of [before, step1, step2]) expect(await follow(replica, link)).toBe(200);

    // Step 3, 15 minutes later (every old link has expired): the old key goes.
    const a3 = replicaForTest(a, { downloadLinkSecret: NEW });
    expect(await follow(a3, step2)).toBe(200);
    expect(await ready(a3)).toEqual({ signingKeyId: keyIdOf(NEW), keyIds: [keyIdOf(NEW)] });
    expect(await ready(a2)).toEqual({ signingKeyId: keyIdOf(NEW), keyIds: [keyIdOf(NEW), keyIdOf(OLD)] });
    expect(await signingKeyMetric(a2)).toEqual([
      { name: 'titlegraph_download_link_signing_key_info', labels: { key_id: keyIdOf(NEW) }, value: 1 },
    ]);
  });

  test('a link made before links named their key (no kid) is checked with every key', async () => {
    const a = await serviceForTest({ services: { downloadLinkSecret: OLD } });
    const link = await orderedLink(a);
    link.searchParams.delete('kid');
    expect(await follow(replicaForTest(a, { downloadLinkSecret: `${NEW},${OLD}` }), link)).toBe(200);
    expect(await follow(replicaForTest(a, { downloadLinkSecret: NEW }), link)).toBe(403);
  });

  test('replicas that disagree: the link is refused, and the replica says so in its log, its metrics and /ready', async () => {
    const a = await serviceForTest({ services: { downloadLinkSecret: NEW } });
    const b = replicaForTest(a, { downloadLinkSecret: OLD });
    const lines: { level: number; msg: string; keyId?: string }[] = [];
    logServiceEvents(b.services.events, pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }));
    const link = await orderedLink(a);
    a.emulator.calls.reset();
    const { status, body } = await refusal(await b.get(link.pathname + link.search, null));
    expect([status, body.error.code]).toEqual([403, 'DOWNLOAD_LINK_INVALID']);
    expect(a.emulator.calls.count({ route: 'downloadDocument' })).toBe(0);
    await refusal(await b.get(link.pathname + link.search, null)); // told once, counted twice
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        keyId: keyIdOf(NEW),
        msg: expect.stringMatching(/signed with key \w+ arrived; this replica signs with \w+ .* replicas disagree on DOWNLOAD_LINK_SECRET/),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(OLD);
    const metrics = parseMetrics(await (await b.get('/metrics', null)).text());
    expect(metrics.find((m) => m.name === 'titlegraph_download_link_unknown_key_total')?.value).toBe(2);
    expect((await signingKeyMetric(a))[0]!.labels.key_id).not.toBe((await signingKeyMetric(b))[0]!.labels.key_id);
    expect(((await ready(a)) as { signingKeyId: string }).signingKeyId).not.toBe(
      ((await ready(b)) as { signingKeyId: string }).signingKeyId,
    );
  });

  test('a forged key id is refused like any changed link, and an expired link of a retired key is not a disagreement', () => {
    let now = Date.parse('2026-03-10T12:00:00Z');
    const told: string[] = [];
    const old = new DownloadLinks(OLD, undefined, () => now);
    const current = new DownloadLinks(
      NEW,
      undefined,
      () => now,
      (keyId) => told.push(keyId),
    );
    const file = { tenant: 'client-a', titleNumber: 'MID15313', kind: 'documents' as const, id: 'abc' };
    const params = new URL(current.link('http://x', file, new Date(now + 3_600_000))).searchParams;
    params.set('kid', keyIdOf(OLD));
    expect(current.check(file, params)).toMatchObject({ ok: false, code: 'DOWNLOAD_LINK_INVALID' });
    expect(told).toEqual([keyIdOf(OLD)]);
    const retired = new URL(old.link('http://x', file, new Date(now + 3_600_000))).searchParams;
    now += LINK_VALIDITY_MS + 1;
    expect(current.check(file, retired)).toMatchObject({ ok: false, code: 'DOWNLOAD_LINK_INVALID' });
    expect(told).toHaveLength(1);
  });
});
