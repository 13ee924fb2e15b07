/**
 * Every refusal of bad input names what to fix, with a stable code and one HTTP status whether
 * the value came inline or as a variable: 200 under application/json, 400 under
 * application/graphql-response+json. Each case is sent three times to a service that compiles a
 * document after one run (interpreted, then compiled): the answers must not change.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startService, type Service } from '../support/harness';
import { postRaw } from '../support/post-raw';

type Running = Service & { stop(): Promise<void> };
let svc: Running;
beforeAll(async () => {
  svc = await startService({ app: { jit: { compileAfter: 1 } } });
});
afterAll(() => svc?.stop());

interface Answer {
  status: number;
  body: { data?: unknown; errors?: { message: string; locations?: unknown; extensions?: Record<string, unknown> }[] };
}

async function send(query: string, variables: Record<string, unknown> | undefined, accept: string): Promise<Answer> {
  const answer = await postRaw(svc.yoga, { query, variables }, { accept });
  return { status: answer.status, body: answer.body as Answer['body'] };
}

const BUY = (fas: string) =>
  `mutation { purchaseTitleDetails(fas: ${fas}, input: { titleNumber: "MID1234", idempotencyKey: "k" }) { charges { fee } } }`;
const BUY_WITH =
  'mutation Buy($f: FasNumber!) { purchaseTitleDetails(fas: $f, input: { titleNumber: "MID1234", idempotencyKey: "k" }) { charges { fee } } }';

const cases: [string, string, Record<string, unknown> | undefined, string, { line: number; column: number }][] = [
  [
    'a bad scalar typed inline',
    BUY('"087"'),
    undefined,
    'Argument "fas" has invalid value "087": FasNumber must be 4 to 6 digits.',
    { line: 1, column: 38 },
  ],
  [
    'the same value as a variable',
    BUY_WITH,
    { f: '087' },
    'Variable "$f" got invalid value "087": FasNumber must be 4 to 6 digits.',
    { line: 1, column: 14 },
  ],
  [
    'a bad value inside an input object',
    'mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "M1", idempotencyKey: "k" }) { charges { fee } } }',
    undefined,
    'Argument "input.titleNumber" has invalid value "M1": TitleNumber must be 3 uppercase letters then 1 to 8 digits, e.g. MID15313.',
    { line: 1, column: 68 },
  ],
  [
    'a bad built-in variable',
    'query L($i: Boolean!) { referenceList(path: "lr/creditor") { items(includeInactive: $i) { label } } }',
    { i: 'notabool' },
    'Variable "$i" got invalid value "notabool"; Boolean cannot represent a non boolean value: "notabool"',
    { line: 1, column: 9 },
  ],
  [
    'a missing required variable',
    'query T($t: TitleNumber!) { title(titleNumber: $t) { titleNumber } }',
    {},
    'Variable "$t" of required type "TitleNumber!" was not provided.',
    { line: 1, column: 9 },
  ],
  [
    'a bad enum value in a variable',
    'query Q($p: [ChargeableProduct!]!) { chargeQuote(fas: "0877", titleNumber: "MID1234", products: $p) { expectedTotal } }',
    { p: ['EVERYTHING'] },
    'Variable "$p" got invalid value "EVERYTHING" at "p[0]"; Value "EVERYTHING" does not exist in "ChargeableProduct" enum.',
    { line: 1, column: 9 },
  ],
  [
    'a bad Date literal',
    '{ chargeRecords(day: "2026-13-01") { idempotencyKey } }',
    undefined,
    'Date cannot represent an invalid date-string 2026-13-01.',
    { line: 1, column: 22 },
  ],
];

describe('bad input: one message, code and status, inline or as a variable, before and after compilation', () => {
  test.for(cases)('%s', async ([, query, variables, message, location]) => {
    for (const [accept, status] of [
      ['application/json', 200],
      ['application/graphql-response+json', 400],
    ] as const) {
      const answers: Answer[] = [];
      for (let i = 0; i < 3; i++) answers.push(await send(query, variables, accept));
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(answers[0]!.status).toBe(status);
      expect(answers[0]!.body.errors).toEqual([{ message, locations: [location], extensions: { code: 'BAD_USER_INPUT' } }]);
    }
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
  });
});
