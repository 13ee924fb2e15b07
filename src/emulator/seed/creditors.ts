/**
 * Known creditors (lenders with a creditor code), for the creditor search (4.9), the
 * `lr/creditor` reference list and the creditor applicant of a standard security (deed 20).
 * More than 15 designations contain "bank"; Santander UK plc is SANT4 (named fixture).
 */
import type { Creditor } from '../../register/contract/wire';

export interface CreditorRecord extends Creditor {
  /** Still accepted as the creditor of a new standard security. */
  active: boolean;
  /** Where the lender is registered, shown in the detailed reference list. */
  registeredOffice: string;
}

const c = (designation: string, creditorCode: string, registeredOffice: string, active = true): CreditorRecord => ({
  designation,
  creditorCode,
  registeredOffice,
  active,
});

export const CREDITORS: readonly CreditorRecord[] = [
  c('Santander UK plc', 'SANT4', 'London'),
  c('Bank of Scotland plc', 'BOS1', 'Edinburgh'),
  c('The Royal Bank of Scotland plc', 'RBS2', 'Edinburgh'),
  c('Clydesdale Bank PLC', 'CLYD1', 'Glasgow'),
  c('Barclays Bank UK PLC', 'BARC3', 'London'),
  c('Lloyds Bank plc', 'LLOY2', 'London'),
  c('HSBC UK Bank plc', 'HSBC5', 'Birmingham'),
  c('National Westminster Bank Plc', 'NWB1', 'London'),
  c('TSB Bank plc', 'TSB7', 'Edinburgh'),
  c('Metro Bank PLC', 'METR1', 'London'),
  c('The Co-operative Bank p.l.c.', 'COOP2', 'Manchester'),
  c('Svenska Handelsbanken AB (publ)', 'SHB1', 'Stockholm'),
  c('Aldermore Bank PLC', 'ALDB1', 'Reading'),
  c('Bank of Ireland (UK) plc', 'BOI2', 'London'),
  c('Allied Irish Banks (GB)', 'AIB1', 'London', false),
  c('Monzo Bank Limited', 'MONZ1', 'London'),
  c('Starling Bank Limited', 'STAR1', 'London'),
  c('Investec Bank plc', 'INVB1', 'London'),
  c('Shawbrook Bank Limited', 'SHAW1', 'Brentwood'),
  c('OneSavings Bank plc', 'OSB1', 'Chatham'),
  c('Paragon Bank PLC', 'PARA1', 'Solihull'),
  c('Nationwide Building Society', 'NBS1', 'Swindon'),
  c('Coventry Building Society', 'CBS2', 'Coventry'),
  c('Skipton Building Society', 'SKIP1', 'Skipton'),
  c('Yorkshire Building Society', 'YBS1', 'Bradford'),
  c('Leeds Building Society', 'LEBS1', 'Leeds'),
  c('Scottish Building Society', 'SBS1', 'Edinburgh'),
  c('Dunfermline Building Society', 'DBS1', 'Dunfermline', false),
  c('The Mortgage Works (UK) plc', 'TMW1', 'Swindon'),
  c('Kensington Mortgage Company Limited', 'KENS1', 'London'),
  c('Hampden & Co plc', 'HAMP1', 'Edinburgh'),
  c('Adam & Company PLC', 'ADAM1', 'Edinburgh', false),
];

const byCode = new Map(CREDITORS.map((cr) => [cr.creditorCode, cr]));

export function findCreditor(code: string): CreditorRecord | undefined {
  return byCode.get(code);
}

/** Case-insensitive substring search over designations, in list order, at most `limit`. */
export function searchCreditors(query: string, limit: number): Creditor[] {
  const needle = query.toLocaleLowerCase('en-GB');
  const out: Creditor[] = [];
  for (const cr of CREDITORS) {
    if (out.length >= limit) break;
    if (cr.designation.toLocaleLowerCase('en-GB').includes(needle)) {
      out.push({ designation: cr.designation, creditorCode: cr.creditorCode });
    }
  }
  return out;
}

/** Lenders used as creditors of generated securities (all have codes). */
export const SECURITY_LENDERS: readonly CreditorRecord[] = CREDITORS.filter((cr) => cr.active).slice(0, 14);
