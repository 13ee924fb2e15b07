/**
 * Title documents (4.4/4.5) as real PDFs: the title sheet sections A–D (property,
 * proprietorship, securities, burdens), preambles inline or in an annex, and/or the advance
 * notices and pending applications.
 */
import type { Address } from '../register/contract/wire';
import { newDocument, saveDocument, TextWriter } from './pdf-writer';
import { oneLine } from './seed/build';
import type { TitleRecord } from './seed/model';

export interface DocumentParts {
  titleSheet: boolean;
  applications: boolean;
  preambles?: 'INLINE';
}

const addr = (a: Address | undefined) => (a ? oneLine(a) + (a.uprn ? ` (UPRN ${a.uprn})` : '') : '');

export async function renderTitleDocument(
  title: TitleRecord,
  parts: DocumentParts,
  issuedAt: Date,
  reference?: string,
): Promise<Uint8Array> {
  const doc = await newDocument(`Title ${title.titleNumber}`, 'Land Register title sheet extract', issuedAt);
  const w = await TextWriter.create(doc);
  const d = title.details;

  w.text('LAND REGISTER OF SCOTLAND', { size: 9, bold: true, grey: true });
  w.heading(`Title number ${title.titleNumber}`, 1);
  w.text(`Status: ${title.status}    Title type: ${title.titleType}${d?.searchSheet ? `    Search sheet: ${d.searchSheet}` : ''}`);
  if (d?.date?.titleSheetUpdatedTo) w.text(`Title sheet updated to ${d.date.titleSheetUpdatedTo}`);
  w.text(`Issued ${issuedAt.toISOString()}${reference ? ` - your reference: ${reference}` : ''}`, { grey: true, gap: 8 });

  if (parts.titleSheet && d) {
    const annex: string[] = [];
    w.heading('A. Property section');
    if (d.right.description) w.text(d.right.description, { gap: 4 });
    for (const a of d.right.addresses) w.text(addr(a), { indent: 12 });
    w.text(
      [
        d.right.cadastralUnit && `Cadastral unit ${d.right.cadastralUnit}`,
        d.right.mapReference && `map reference ${d.right.mapReference}`,
        d.right.sasineSearch && `Sasine search ${d.right.sasineSearch}`,
        d.right.hectarageCode !== undefined && `hectarage code ${d.right.hectarageCode}`,
      ]
        .filter(Boolean)
        .join(', '),
      { grey: true, gap: 4 },
    );
    for (const p of title.plans)
      w.text(`Plan: ${p.summary.description ?? p.summary.type} (${p.summary.type}, updated ${p.summary.lastUpdated ?? '-'})`, {
        indent: 12,
      });
    for (const n of d.right.notes) w.text(`Note ${n.entryNo}. ${n.text}`, { indent: 12 });
    for (const n of d.right.boundaryNotes?.notes ?? [])
      w.text(`Boundary (${d.right.boundaryNotes?.planType ?? 'plan'}): ${n.prettyPrint}`, { indent: 12 });
    for (const s of d.right.schedules) {
      w.text(s.description ?? s.type ?? 'Schedule', { bold: true });
      for (const e of s.entries)
        for (const sub of e.subEntries)
          w.text(
            `${e.entryNo}. ${sub.realBurdens ?? ''} Benefitted: ${sub.benefittedProperty ?? '-'}. Burdened: ${sub.burdenedProperty ?? '-'}.`,
            { indent: 12 },
          );
    }

    w.heading('B. Proprietorship section');
    for (const p of d.proprietorships) {
      w.text(`${p.entryNumber}. ${p.description ?? p.details.flatMap((x) => x.proprietors.map((pr) => pr.prettyPrint)).join(' and ')}`);
      for (const c of p.considerationEntries)
        w.text(
          `Date of entry ${c.dateOfEntry ?? '-'}; registered ${c.dateOfRegistration ?? '-'}; consideration: ${c.consideration ?? '-'}`,
          { indent: 12, grey: true },
        );
    }

    w.heading('C. Securities section');
    if (!d.securities.length) w.text('No entries.', { grey: true });
    for (const s of d.securities) {
      w.text(
        `${s.entryNumber}. ${s.specification ?? 'Standard Security'} - creditor: ${s.creditor ?? '-'}, registered ${s.date?.registration ?? '-'}`,
      );
      w.text(`Debtors: ${s.debtors.map((x) => x.prettyPrint).join(', ')}`, { indent: 12, grey: true });
      for (const n of s.notes) w.text(n, { indent: 12 });
    }

    w.heading('D. Burdens section');
    if (!d.burdens.length) w.text('No entries.', { grey: true });
    for (const part of d.burdens) {
      for (const e of part.entries) {
        if (parts.preambles === 'INLINE' && e.preamble) w.text(`${e.entryNumber}. ${e.preamble}`, { bold: true });
        else {
          w.text(`${e.entryNumber}. (preamble: see annex, note ${annex.length + 1})`, { bold: true });
          annex.push(e.preamble ?? '');
        }
        w.text(e.text ?? '', { indent: 12, gap: 4 });
      }
    }
    if (d.sharingPlots.length || d.sharedPlots.length) {
      for (const s of d.sharingPlots) w.text(`Sharing plot ${s.titleNumber}: ${s.share ?? '-'}`, { grey: true });
      for (const s of d.sharedPlots) w.text(`Shared plot ${s.titleNumber}: ${s.share ?? '-'}`, { grey: true });
    }
    if (annex.length) {
      w.heading('Annex: preambles');
      for (const [i, p] of annex.entries()) w.text(`${i + 1}. ${p}`);
    }
  }

  if (parts.applications) {
    w.heading('Advance notices and pending applications');
    if (!title.pending.length) w.text('There are no advance notices or pending applications.', { grey: true });
    for (const a of title.pending) {
      w.text(
        `${a.applicationNumber} - ${a.type?.prettyPrint ?? a.type?.code ?? ''} (${a.type?.code ?? '-'}), received ${a.applicationDate ?? '-'}${a.status ? `, ${a.status.prettyPrint ?? a.status.code}` : ''}`,
        { bold: true },
      );
      if (a.consideration) w.text(`Consideration: ${a.consideration}`, { indent: 12 });
      for (const s of a.subjects) w.text(`Subjects: ${oneLine(s)}`, { indent: 12 });
      for (const deed of a.deeds)
        w.text(
          `Deed: ${deed.type?.prettyPrint ?? deed.type?.code ?? '-'}${deed.info ? ` - ${deed.info}` : ''}${deed.agentNumber ? ` (agent ${deed.agentNumber})` : ''}`,
          { indent: 12 },
        );
      const party = (p: { name?: { first?: string; last?: string; company?: string } }) =>
        p.name?.company ?? [p.name?.first, p.name?.last].filter(Boolean).join(' ');
      if (a.granters.length) w.text(`Granters: ${a.granters.map(party).join(', ')}`, { indent: 12 });
      if (a.applicants.length) w.text(`Applicants: ${a.applicants.map(party).join(', ')}`, { indent: 12 });
      if (a.validFrom || a.validTo) w.text(`Protected from ${a.validFrom ?? '-'} to ${a.validTo ?? '-'}`, { indent: 12 });
    }
  }

  w.finish(`Land Register of Scotland - title ${title.titleNumber} - issued ${issuedAt.toISOString().slice(0, 10)}`);
  return saveDocument(doc);
}
