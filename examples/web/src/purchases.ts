/**
 * The day's purchases as the journal records them (`chargeRecords`, free: no register call), each
 * with who bought it: the signed-in person's name, or the API key's name.
 */
import { execute } from './client';
import { element } from './dom';
import { DayPurchasesQuery, RegisterDayQuery } from './operations';

export async function showPurchases(list: HTMLElement): Promise<void> {
  // the register's day (Europe/London), which the service knows and the browser's clock may not
  const { spending } = await execute(RegisterDayQuery, {});
  const { chargeRecords } = await execute(DayPurchasesQuery, { day: spending.day });
  const items = chargeRecords.map((record) => {
    const fee = record.status === 'CHARGED' && record.charge ? `£${record.charge.fee}` : 'outcome unknown: check the invoice';
    const item = element('li', `${record.titleNumber}: ${record.operation}, ${fee}, bought by ${record.callerName ?? record.caller}`);
    item.dataset.caller = record.caller;
    return item;
  });
  list.replaceChildren(...(items.length > 0 ? items : [element('li', 'Nothing bought today.', 'muted')]));
}
