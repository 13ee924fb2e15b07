/**
 * The emulator's state file (`startEmulator({ stateFile })`): what a register would still know
 * after a restart is still known by a new emulator on the same file (ledger, transaction-number
 * counter, quota, tokens, cases, deeds, issued IDs and the PDFs they give); a file that is
 * damaged, newer or in use stops the start instead of an empty register starting beside it. (A
 * process killed while it charges: test/process/embedded-restart.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { type Emulator, EmulatorStateError, startEmulator } from '../../src/emulator/index';
import { Api, NOON_ISH } from '../support/emulator-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'titlegraph-emulator-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `state-${++files}.sqlite`);

const open: Emulator[] = [];
afterEach(async () => {
  for (const emu of open.splice(0)) await emu.close();
});
async function start(stateFile: string, now: () => Date = () => NOON_ISH): Promise<{ emu: Emulator; api: Api }> {
  const emu = await startEmulator({ port: 0, now, stateFile });
  open.push(emu);
  return { emu, api: new Api(emu) };
}
async function stop(emu: Emulator) {
  open.splice(open.indexOf(emu), 1);
  await emu.close();
}

const buy = (api: Api, titleNumber: string, fas = '0877') => api.get(`/titles/${titleNumber}/details?fas=${fas}`);
const numbers = (emu: Emulator) => emu.ledger.charges.map((e) => e.charge.transactionNumber);

describe('a restart on the same state file', () => {
  test('keeps the ledger: already charged today stays free, balances stand, the next number follows the last', async () => {
    const file = newFile();
    const first = await start(file);
    const bought = await buy(first.api, 'MID15313');
    expect(bought.json.charges).toEqual([expect.objectContaining({ fee: '3.00', transactionNumber: 'RT202506100000001' })]);
    await stop(first.emu);

    const second = await start(file);
    expect(second.emu.ledger.charges).toEqual(first.emu.ledger.charges);
    const again = await buy(second.api, 'MID15313');
    expect(again.status).toBe(200);
    expect(again.json.charges).toEqual([]);
    const other = await buy(second.api, 'MID1234');
    expect(other.json.charges).toEqual([expect.objectContaining({ transactionNumber: 'RT202506100000002' })]);
    expect(second.emu.ledger.count({ fas: '0877' })).toBe(2);
    // FAS 9999 starts at its credit limit: still refused after a restart (balances are rebuilt, not zeroed).
    expect((await buy(second.api, 'MID15313', '9999')).status).toBe(402);
  });

  test('transaction numbers never repeat across many restarts, even on a frozen clock', async () => {
    const file = newFile();
    const seen: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const { emu, api } = await start(file);
      expect((await buy(api, `BLK${i}`)).json.charges).toHaveLength(1);
      seen.push(...numbers(emu).slice(-1));
      await stop(emu);
    }
    expect(new Set(seen).size).toBe(5);
    expect(seen.at(-1)).toBe('RT202506100000005');
  });

  test('keeps quota counts, live tokens, cases, deeds and document IDs; a document gives the same bytes', async () => {
    const file = newFile();
    const first = await start(file);
    const token = await first.api.tokenFor('client-a');
    const created = await first.api.post('/cases', {
      reference: 'kept case',
      agent: { fas: '1877', contactEmail: 'a@b.example', contactTelephone: '1' },
      subjects: [{ type: 'REGISTERED', titleNumber: 'MID15313' }],
    });
    expect(created.status).toBe(201);
    const deed = { deedType: '20', subjectExtent: 'REGISTERED_WHOLE', applicants: [{ type: 'CREDITOR', creditorCode: 'SANT4' }] };
    const onCreated = await first.api.post(`/cases/${created.json.id}/deeds`, deed);
    const onSeeded = await first.api.post('/cases/RLP06ORGACASE/deeds', deed);
    const ordered = await first.api.post('/titles/MID15313/documents?fas=0877', { titleSheet: { include: true } });
    const documentId = ordered.json.data.documentId as string;
    const pdf = await first.api.get(`/titles/MID15313/documents/${documentId}`);
    expect(pdf.status).toBe(200);
    const used = first.emu.state.quotaUsed('ORG-A');
    await stop(first.emu);

    const second = await start(file);
    expect(second.emu.state.quotaUsed('ORG-A')).toBe(used);
    expect(second.emu.state.tokenCount()).toBe(1);
    // The token issued before the restart still works (no new token asked for).
    const again = await second.api.get(`/titles/MID15313/documents/${documentId}`, { token });
    expect(again.status).toBe(200);
    expect(Buffer.compare(again.bytes, pdf.bytes)).toBe(0);
    expect(second.emu.state.cases.get(created.json.id)).toMatchObject({ reference: 'kept case', createdAt: NOON_ISH });
    expect(second.emu.state.cases.get(created.json.id)!.deeds.map((d) => d.id)).toEqual([onCreated.json.id]);
    expect(second.emu.state.cases.get('RLP06ORGACASE')!.deeds.map((d) => d.id)).toEqual([onSeeded.json.id]);
    expect(second.emu.state.deeds.map((d) => d.id)).toEqual([onCreated.json.id, onSeeded.json.id]);
    expect(second.emu.state.deeds[0]!.request).toEqual(deed);
    expect(second.emu.state.documents.get(documentId)).toEqual(first.emu.state.documents.get(documentId));
    expect(second.emu.state.quotaUsed('ORG-A')).toBe(used + 1);
  });

  test('an expired token stays expired: the state file keeps no bearer value, only its hash', async () => {
    const file = newFile();
    let now = NOON_ISH;
    const first = await start(file, () => now);
    const token = await first.api.tokenFor('client-a');
    await stop(first.emu);
    expect(readFileSync(file).includes(Buffer.from(token))).toBe(false);
    now = new Date(NOON_ISH.getTime() + 301_000);
    const second = await start(file, () => now);
    expect((await second.api.get('/titles/MID15313/summary', { token })).status).toBe(401);
  });

  test('without a state file nothing is kept: the in-memory default', async () => {
    const first = await startEmulator({ port: 0, now: () => NOON_ISH });
    const api = new Api(first);
    expect((await buy(api, 'MID15313')).json.charges).toHaveLength(1);
    await first.close();
    const second = await startEmulator({ port: 0, now: () => NOON_ISH });
    open.push(second);
    expect(second.ledger.charges).toEqual([]);
  });
});

describe('a state file that cannot be used stops the start', () => {
  test('one that is not a database, or is cut short, is refused naming it, never replaced by an empty state', async () => {
    const garbage = newFile();
    writeFileSync(garbage, 'SQLite format 3\0'.padEnd(4096, 'x'));
    await expect(startEmulator({ port: 0, stateFile: garbage })).rejects.toThrow(
      new EmulatorStateError(
        `the register emulator's state file ${garbage} cannot be used: it is not an emulator state file, or it is damaged; move it away to start the emulator empty`,
      ),
    );

    const cut = newFile();
    const { emu, api } = await start(cut);
    for (let i = 1; i <= 40; i++) await buy(api, `BLK${i}`);
    await stop(emu);
    truncateSync(cut, 4096 * 2);
    await expect(startEmulator({ port: 0, stateFile: cut })).rejects.toThrow(
      /state file .* cannot be used: it is not an emulator state file, or it is damaged/,
    );
  });

  test('one written by a newer release is refused', async () => {
    const file = newFile();
    const db = new DatabaseSync(file);
    db.exec('PRAGMA user_version = 99');
    db.close();
    await expect(startEmulator({ port: 0, stateFile: file })).rejects.toThrow(/written by a newer release \(format 99, this one reads 1\)/);
  });

  test('one another emulator has open is refused while it runs, and opens once it has stopped', async () => {
    const file = newFile();
    const { emu } = await start(file);
    await expect(startEmulator({ port: 0, stateFile: file })).rejects.toThrow(/it is in use by another running emulator/);
    await stop(emu);
    const { emu: next } = await start(file);
    expect(next.ledger.charges).toEqual([]);
  });
});
