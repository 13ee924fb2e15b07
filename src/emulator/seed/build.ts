/** Small builders shared by the named fixtures and the generated titles. */
import type { Address, Name, PendingApplication, TitleDetails, TitleSecurity, TitleSummary } from '../../register/contract/wire';
import { opaqueId } from './prng';
import type { PlanDrawing, PlanRecord, TitleRecord } from './model';

export function person(first: string, last: string, prefix?: string): { name: Name; prettyPrint: string } {
  const name: Name = prefix ? { prefix, first, last } : { first, last };
  return { name, prettyPrint: `${prefix ? `${prefix.toUpperCase()} ` : ''}${first.toUpperCase()} ${last.toUpperCase()}` };
}

export function company(companyName: string): { name: Name; prettyPrint: string } {
  return { name: { company: companyName }, prettyPrint: companyName.toUpperCase() };
}

export function oneLine(a: Address): string {
  return [a.subBuilding, a.name, [a.number, a.street].filter((x) => x !== undefined).join(' '), a.locality, a.town, a.postcode]
    .filter((x) => x !== undefined && x !== '')
    .join(', ');
}

/** The securities listing (2.10) derived from section C of the title sheet. */
export function securityListing(titleNumber: string, details: TitleDetails): TitleSecurity[] {
  return details.securities.map((s) => ({
    id: opaqueId(`${titleNumber}:security:${s.entryNumber}`, 12),
    applicationType: 'PAPER',
    specification: s.specification,
    dateOfRegistration: s.date?.registration,
    source: 'TITLE',
  }));
}

/** A registered title record from its title sheet data, plans and pending applications. */
export function registeredTitle(details: TitleDetails, plans: PlanRecord[], pending: PendingApplication[]): TitleRecord {
  return {
    titleNumber: details.titleNumber,
    status: 'REGISTERED',
    titleType: details.titleType ?? 'GENERAL',
    details,
    plans,
    pending,
    securities: securityListing(details.titleNumber, details),
  };
}

/** A title of another status: only number, status and type (and, when absorbed, a listing). */
export function reducedTitle(
  titleNumber: string,
  status: TitleRecord['status'],
  titleType = 'GENERAL',
  securities: TitleSecurity[] = [],
  pending: PendingApplication[] = [],
): TitleRecord {
  return { titleNumber, status, titleType, plans: [], pending, securities };
}

/** The title summary (2.5): complete for registered titles, reduced for every other status. */
export function summaryOf(t: TitleRecord): TitleSummary {
  const d = t.details;
  if (t.status !== 'REGISTERED' || !d) return { titleNumber: t.titleNumber, status: t.status, titleType: t.titleType };
  return {
    titleNumber: t.titleNumber,
    status: t.status,
    titleType: t.titleType,
    searchSheet: d.searchSheet,
    date: { titleSheetUpdatedTo: d.date?.titleSheetUpdatedTo },
    right: { type: d.right.type, description: d.right.description, addresses: d.right.addresses },
    proprietorships: d.proprietorships.map((p) => ({ considerationEntries: p.considerationEntries })),
    plans: t.plans.map((p) => ({ ...p.summary })),
    applications: t.pending.map((a) => ({
      applicationNumber: a.applicationNumber,
      applicationDate: a.applicationDate,
      type: a.type,
    })),
  };
}

/** An irregular boundary polygon (metres) around the origin, from a list of radii. */
export function polygonFromRadii(radii: readonly number[], rotationDeg = 0): PlanDrawing['polygon'] {
  const n = radii.length;
  return radii.map((r, i) => {
    const a = ((rotationDeg + (360 * i) / n) * Math.PI) / 180;
    return [Math.round(r * Math.cos(a) * 10) / 10, Math.round(r * Math.sin(a) * 10) / 10];
  });
}
