/** Nothing secret in errors or events: no client secret, token, Authorization value, URL or fas. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegisterClient, RegisterError } from '../../src/register/client';
import { redact, safeCause } from '../../src/register/client/errors';
import { CLIENT_A, exposedText, registerError, rig, type Rig } from '../support/register-rig';

let r: Rig;
beforeAll(async () => {
  r = await rig();
});
afterAll(async () => {
  await r.close();
});

const FAS_VALUES = ['0877', '1234', '9999', '5555', '1877', '5877'];

function assertClean(e: RegisterError, token: string | undefined) {
  const text = exposedText(e);
  expect(text).not.toContain('secret-a');
  expect(text).not.toContain(Buffer.from('client-a:secret-a').toString('base64'));
  expect(text).not.toMatch(/Bearer\s+(?!\[redacted\])\S/);
  expect(text).not.toMatch(/https?:\/\//);
  expect(text).not.toContain('?fas');
  expect(text).not.toContain('fas=');
  if (token) expect(text).not.toContain(token);
  for (const fas of FAS_VALUES) expect(text).not.toMatch(new RegExp(`(?<![A-Za-z0-9])${fas}(?![0-9])`));
}

describe('redaction', () => {
  it('keeps secrets, tokens, URLs and fas values out of every error', async () => {
    const t = r.transport({ retry: { attempts: 1 } });
    const c = r.client(t);
    await c.titleSummary('MID1234');
    const token = (c as unknown as { tokens: { current(): string | undefined } }).tokens.current();
    expect(token).toBeTruthy();

    const errors: RegisterError[] = [];
    errors.push(await registerError(c.titleDetails('MID15313', { fas: '9999', reference: 'r1' })));
    errors.push(await registerError(c.titleDetails('MID15313', { fas: '5555' })));
    errors.push(await registerError(c.pendingApplications('ZZZ999', { fas: '0877' })));
    errors.push(await registerError(c.titleDetails('MID15313', { fas: '12' })));
    r.emu.faults.inject('titleDetails', { kind: 'reset' }, 1);
    errors.push(await registerError(c.titleDetails('MID15313', { fas: '1234' })));
    r.emu.faults.inject('titleDetails', { kind: 'hang' }, 1);
    errors.push(await registerError(c.titleDetails('MID15313', { fas: '1234' })));
    r.emu.faults.inject('titleDetails', { kind: 'malformed' }, 1);
    errors.push(await registerError(c.titleDetails('MID15313', { fas: '1234' })));
    r.emu.faults.inject('titleDetails', { kind: 'status', status: 500 }, 1);
    errors.push(await registerError(c.titleDetails('MID15313', { fas: '1234' })));
    errors.push(
      await registerError(
        c.createCase({
          reference: 'x',
          agent: { fas: '5877', contactEmail: 'a@b.c', contactTelephone: '1' },
          subjects: [{ type: 'REGISTERED', titleNumber: 'MID1234' }],
        }),
      ),
    );
    errors.push(
      await registerError(new RegisterClient(t, { clientId: 'client-a', clientSecret: 'secret-a-wrong' }).titleSummary('MID1234')),
    );

    expect(errors.map((e) => e.code)).toEqual([
      'CREDIT_LIMIT_EXCEEDED',
      'FAS_NOT_AUTHORISED',
      'TITLE_NOT_FOUND',
      'INVALID_REQUEST',
      'REGISTER_UNAVAILABLE',
      'REGISTER_TIMEOUT',
      'REGISTER_CONTRACT_ERROR',
      'REGISTER_UNAVAILABLE',
      expect.any(String),
      'UNAUTHORISED',
    ]);
    for (const e of errors) assertClean(e, token);
    // events carry route names, never a URL, secret, token or fas
    expect(r.events.length).toBeGreaterThan(0);
    for (const ev of r.events) {
      const text = Object.values(ev)
        .filter((v) => typeof v === 'string')
        .join(' ');
      expect(text).not.toMatch(/https?:|fas|secret|Bearer|Basic/i);
      if (token) expect(text).not.toContain(token);
      for (const fas of FAS_VALUES) expect(text).not.toMatch(new RegExp(`(?<![A-Za-z0-9])${fas}(?![0-9])`));
    }
  });

  it('uses the client credentials over HTTP Basic for the token', async () => {
    const c = new RegisterClient(r.transport(), { ...CLIENT_A });
    await c.listPaths();
    expect(r.emu.calls.count({ route: 'token', clientId: 'client-a', status: 200 })).toBeGreaterThan(0);
  });
});

describe('the redaction rules on their own', () => {
  it('removes URLs, query strings, credentials and sensitive values, keeping title numbers', () => {
    const msg =
      'fas 1234 refused for MID1234 at http://127.0.0.1:4010/v1/titles/MID1234/details?fas=1234 with Bearer abc.def token tok-xyz secret-a ?fas=1234';
    const out = redact(msg, ['1234', 'tok-xyz', 'secret-a', undefined]);
    expect(out).not.toMatch(/(?<![A-Z])1234/);
    expect(out).toContain('MID1234');
    expect(out).not.toContain('http');
    expect(out).not.toContain('abc.def');
    expect(out).not.toContain('tok-xyz');
    expect(out).not.toContain('secret-a');
  });

  it('builds messages from route, status and code; causes keep only a code', () => {
    const e = new RegisterError({ status: 404, code: 'TITLE_NOT_FOUND', route: 'titleSummary', detail: 'no such title' });
    expect(e.message).toBe('register titleSummary failed: HTTP 404 TITLE_NOT_FOUND: no such title');
    expect(e.outcomeUnknown).toBe(false);
    const raw = Object.assign(new Error('connect ECONNREFUSED http://x/?fas=1234'), { code: 'ECONNREFUSED' });
    expect(safeCause(raw)?.message).toBe('ECONNREFUSED');
  });
});
