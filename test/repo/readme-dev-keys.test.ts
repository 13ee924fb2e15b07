/**
 * The README's development keys are the embedded start's: every key it lists is one the service
 * takes on the embedded emulator (and every such key is listed), with the register client,
 * organisation and charging accounts the emulator gives it. A fixture that changes fails here
 * until the table follows.
 */
import { expect, test } from 'vitest';
import { CLIENTS, FAS_ACCOUNTS, ORGANISATIONS } from '../../src/emulator/seed/organisations';
import { DEV_API_KEYS, DEV_ORGANISATIONS, DEV_ROUTER_KEY } from '../../src/services/callers';
import { docPage } from '../support/docs';

interface Row {
  key: string;
  client: string;
  organisation: string;
  titleFas: string[];
  caseFas: string[];
}

/** The table's rows, a cell reading "same" taking the row above's. */
function rows(): Row[] {
  const readme = docPage('README');
  const start = readme.indexOf('## Development keys');
  expect(start, 'the README has a Development keys section').toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const lines = section.split('\n').filter((line) => line.startsWith('| `'));
  expect(lines.length, 'the README has a development keys table').toBeGreaterThan(1);
  const numbers = (cell: string) => [...cell.matchAll(/\b\d{4}\b/g)].map((m) => m[0]);
  const out: Row[] = [];
  for (const line of lines) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const above = out.at(-1);
    out.push({
      key: /`([^`]+)`/.exec(cells[0]!)![1]!,
      client: cells[1]!,
      organisation: cells[2]!,
      titleFas: cells[3] === 'same' ? above!.titleFas : numbers(cells[3]!),
      caseFas: cells[4] === 'same' ? above!.caseFas : numbers(cells[4]!),
    });
  }
  return out;
}

test("the README's development keys are the embedded start's keys", () => {
  const keys = DEV_API_KEYS.map((key) => (key.router ? DEV_ROUTER_KEY : key.name)).sort();
  expect(
    rows()
      .map((row) => row.key)
      .sort(),
  ).toEqual(keys);
});

test('each development key has the register client, organisation and accounts the emulator gives it', () => {
  for (const row of rows()) {
    const key = DEV_API_KEYS.find((k) => k.name === row.key);
    if (!key) {
      expect(row.key).toBe(DEV_ROUTER_KEY);
      expect(row.client).toMatch(/^none/);
      continue;
    }
    expect(row.client, row.key).toBe(key.clientId);
    const organisation = CLIENTS.find((client) => client.clientId === key.clientId)!.organisation;
    expect(organisation, row.key).toBe(key.organisation);
    const name = ORGANISATIONS.find((o) => o.id === organisation)!.name;
    expect(row.organisation, row.key).toBe(`${organisation} ${name}`);
    const accounts = (kind: 'title' | 'case') =>
      FAS_ACCOUNTS.filter((a) => a.organisation === organisation && a.kind === kind).map((a) => a.fas);
    expect(row.titleFas, row.key).toEqual(accounts('title'));
    expect(row.titleFas, row.key).toEqual(DEV_ORGANISATIONS[organisation]!.fasAccounts);
    expect(row.caseFas, row.key).toEqual(accounts('case'));
  }
});
