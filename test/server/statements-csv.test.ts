/** The statement CSV's cells: a spreadsheet never runs one as a formula, leading blanks or not. */
import { describe, expect, test } from 'vitest';
import { csvCell } from '../../src/server/statements-csv';
import { BuyTitleMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

describe('csvCell', () => {
  test.for([
    ['=1+1', "'=1+1"],
    [' =1+1', "' =1+1"],
    ['   +SUM(A1)', "'   +SUM(A1)"],
    ['\t=1+1', "'\t=1+1"],
    [' \t-2+3', "' \t-2+3"],
    ['\u00a0@cmd', "'\u00a0@cmd"],
    ['\r=1', `"'\r=1"`],
    [' =HYPERLINK("http://x.example")', `"' =HYPERLINK(""http://x.example"")"`],
  ])('%j is defused as %j', ([value, cell]) => {
    expect(csvCell(value)).toBe(cell);
  });

  // A tab or CR is a formula's start only as the first character: inside a cell it is text.
  test.for([['Smith purchase'], ['a = b'], [' 12 Acacia Avenue'], ['MATTER-1'], ['matter\t7'], ['']])('%j is left as it is', ([value]) => {
    expect(csvCell(value)).toBe(value);
  });

  test.for([
    ['matter\r7', '"matter\r7"'],
    ['Smith, J', '"Smith, J"'],
    ['the "Glebe" house', '"the ""Glebe"" house"'],
  ])('%j is quoted as %j, not defused', ([value, cell]) => {
    expect(csvCell(value)).toBe(cell);
  });
});

test('a reference with a formula after leading spaces is defused in /statements.csv', async () => {
  const svc = await serviceForTest();
  const bought = await svc.gql(BuyTitleMutation, {
    fas: '0877',
    input: { titleNumber: 'BLK1', idempotencyKey: newKey('csv'), reference: '  =1+1' },
  });
  expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(svc.services.registerNow());
  const csv = await (await svc.get(`/statements.csv?from=${day}&to=${day}`, 'dev-key-a')).text();
  const row = csv.split('\r\n')[1]!;
  expect(row).toContain(",BLK1,'  =1+1,TITLE_DATA_AND_PLANS,");
});
