/** CORS for front-end origins (CORS_ORIGINS): preflights from allowed and other origins. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

let withCors: HttpService;
let withoutCors: HttpService;
let anyOrigin: HttpService;

beforeAll(async () => {
  withCors = await startHttpService({ app: { corsOrigins: [ALLOWED, 'http://localhost:5173'] } });
  withoutCors = await startHttpService();
  anyOrigin = await startHttpService({ app: { corsOrigins: ['*'] } });
});
afterAll(async () => {
  await withCors?.stop();
  await withoutCors?.stop();
  await anyOrigin?.stop();
});

const preflight = (svc: HttpService, origin: string) =>
  fetch(svc.url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });

describe('CORS with an allow-list', () => {
  test('a preflight from an allowed origin is allowed, for bearer auth and JSON, without credentials', async () => {
    const response = await preflight(withCors, ALLOWED);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('vary')).toMatch(/Origin/);
  });

  test('the actual request from an allowed origin gets the header; so does a second listed origin', async () => {
    const response = await postRaw(withCors.url, { query: '{ __typename }' }, { origin: ALLOWED, accept: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect((await preflight(withCors, 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  test('a preflight or request from another origin gets no CORS headers (the browser blocks it)', async () => {
    const response = await preflight(withCors, OTHER);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/Origin/);
    expect(
      (await postRaw(withCors.url, { query: '{ __typename }' }, { origin: OTHER, accept: null })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();
    // A near miss is another origin too.
    expect((await preflight(withCors, 'http://app.example.com')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS defaults and wildcard', () => {
  test('no origins configured (the default): no CORS headers for anyone', async () => {
    const response = await preflight(withoutCors, ALLOWED);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const actual = await postRaw(withoutCors.url, { query: '{ __typename }' }, { origin: ALLOWED, accept: null });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('`*` allows any origin, still without credentials', async () => {
    const response = await preflight(anyOrigin, OTHER);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(OTHER);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
