/**
 * Controlled reference lists (2.14), in the maintainer's order. Branch nodes (`lr`,
 * `lr/application`, `lr/application/deed`) are not lists; `schema` is reserved.
 */
import type { DetailedList, DetailedListItem } from '../../register/contract/wire';
import { CREDITORS } from './creditors';

export interface ReferenceListRecord {
  path: string;
  detailed: DetailedList;
}

const item = (value: string | number, label: string, extra: Partial<DetailedListItem> = {}): DetailedListItem => ({
  label,
  value,
  ...extra,
});

export const REFERENCE_LISTS: readonly ReferenceListRecord[] = [
  {
    path: 'lr/creditor',
    detailed: {
      metadata: {
        name: 'Creditors',
        description: 'Lenders that may be named as creditor applicant of a standard security, by creditor code.',
        metadataSchema: {
          type: 'object',
          properties: { registeredOffice: { type: 'string', description: 'Town of the registered office' } },
          additionalProperties: false,
        },
      },
      items: CREDITORS.map((c) =>
        item(c.creditorCode, c.designation, { metadata: { registeredOffice: c.registeredOffice }, ...(c.active ? {} : { active: false }) }),
      ),
    },
  },
  {
    path: 'lr/application/land-use',
    detailed: {
      metadata: { name: 'Land use', description: 'Principal use of the subjects of an application.' },
      items: [
        item('RESIDENTIAL', 'Residential'),
        item('COMMERCIAL', 'Commercial'),
        item('INDUSTRIAL', 'Industrial'),
        item('AGRICULTURAL', 'Agricultural', { description: 'Farmland, including crofts and small landholdings' }),
        item('FORESTRY', 'Forestry'),
        item('MIXED', 'Mixed use'),
        item('CROWN', 'Crown land', { active: false, description: 'Merged into the other uses in 2019' }),
      ],
    },
  },
  {
    path: 'lr/application/category',
    detailed: {
      metadata: { name: 'Application category', description: 'Kinds of application to the register.' },
      items: [
        item('FR', 'First registration'),
        item('VR', 'Voluntary registration'),
        item('DW', 'Dealing with whole'),
        item('TP', 'Transfer of part'),
        item('TA', 'Transfer add to'),
        item('TS', 'Transfer of share'),
        item('KR', 'Keeper-induced registration'),
        item('RR', 'Rectification of the register'),
        item('TU', 'Title sheet update'),
        item('AN', 'Advance notice'),
        item('SR', 'Sasine recording', { active: false }),
      ],
    },
  },
  {
    path: 'lr/application/deed/type',
    detailed: {
      metadata: {
        name: 'Deed type',
        description: 'Deeds that can be added to a case.',
        metadataSchema: { type: 'object', properties: { applicantKind: { enum: ['CREDITOR', 'PARTY', 'NONE'] } } },
      },
      items: [
        item(1, 'Discharge of standard security', { metadata: { applicantKind: 'NONE' } }),
        item(11, 'Disposition', { metadata: { applicantKind: 'PARTY' } }),
        item(20, 'Standard security', { metadata: { applicantKind: 'CREDITOR' } }),
        item(5, 'Assignation of standard security', { active: false, description: 'Not yet available through the API' }),
        item(30, 'Notice of potential liability for costs', { active: false }),
      ],
    },
  },
  {
    path: 'lr/application/deed/subject-extent',
    detailed: {
      metadata: { name: 'Deed subject extent', description: 'How much of the case subject a deed relates to.' },
      items: [
        item('REGISTERED_WHOLE', 'Whole of a registered title'),
        item('REGISTERED_PART', 'Part of a registered title', { active: false }),
      ],
    },
  },
];

const byPath = new Map(REFERENCE_LISTS.map((l) => [l.path, l]));

export function findReferenceList(path: string): ReferenceListRecord | undefined {
  return path === 'schema' ? undefined : byPath.get(path);
}
