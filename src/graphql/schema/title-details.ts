/** Title details (service-spec 2.6, chargeable): the full title sheet, and purchaseTitleDetails. */
import { builder } from '../builder';
import type { TitleDetails } from '../../register/contract/wire';
import { chargeableMutation } from './chargeable';
import { AddressType, ConsiderationEntryType, PersonNameType } from './common';
import { rightFields, titleHeadingFields } from './title';

type Right = TitleDetails['right'];
type Schedule = Right['schedules'][number];
type ScheduleEntry = Schedule['entries'][number];
type Proprietorship = TitleDetails['proprietorships'][number];
type Security = TitleDetails['securities'][number];
type Burden = TitleDetails['burdens'][number];
type Party = { name?: { prefix?: string; first?: string; last?: string; company?: string }; prettyPrint?: string };

const BoundaryNotesType = builder.objectRef<NonNullable<Right['boundaryNotes']>>('BoundaryNotes').implement({
  description: 'Notes on the boundaries shown on the title plan.',
  fields: (t) => ({
    planType: t.exposeString('planType', { nullable: true, description: 'Kind of plan the notes refer to.' }),
    notes: t.stringList({ description: 'The notes, printed.', resolve: (b) => b.notes.map((n) => n.prettyPrint) }),
  }),
});
const RightNoteType = builder.objectRef<Right['notes'][number]>('RightNote').implement({
  description: 'A numbered note in section A.',
  fields: (t) => ({
    entryNo: t.exposeInt('entryNo', { description: 'Entry number.' }),
    text: t.exposeString('text', { description: 'Text of the note.' }),
  }),
});
const ScheduleSubEntryType = builder.objectRef<ScheduleEntry['subEntries'][number]>('ScheduleSubEntry').implement({
  description: 'One sub-entry of a schedule entry.',
  fields: (t) => ({
    realBurdens: t.exposeString('realBurdens', { nullable: true, description: 'Real burdens.' }),
    benefittedProperty: t.exposeString('benefittedProperty', { nullable: true, description: 'Benefitted property.' }),
    burdenedProperty: t.exposeString('burdenedProperty', { nullable: true, description: 'Burdened property.' }),
  }),
});
const ScheduleEntryType = builder.objectRef<ScheduleEntry>('ScheduleEntry').implement({
  description: 'A numbered schedule entry.',
  fields: (t) => ({
    entryNo: t.exposeInt('entryNo', { description: 'Entry number.' }),
    subEntries: t.field({ type: [ScheduleSubEntryType], description: 'Sub-entries.', resolve: (e) => e.subEntries }),
  }),
});
const ScheduleType = builder.objectRef<Schedule>('Schedule').implement({
  description: 'A schedule of the title sheet (e.g. of servitudes).',
  fields: (t) => ({
    type: t.exposeString('type', { nullable: true, description: 'Kind of schedule.' }),
    description: t.exposeString('description', { nullable: true, description: 'What the schedule lists.' }),
    entries: t.field({ type: [ScheduleEntryType], description: 'Entries.', resolve: (s) => s.entries }),
  }),
});
const DetailedTitleRightType = builder.objectRef<Right>('DetailedTitleRight').implement({
  description: 'Section A of the title sheet: the property.',
  fields: (t) => ({
    ...rightFields(t),
    cadastralUnit: t.exposeString('cadastralUnit', { nullable: true, description: 'Cadastral unit.' }),
    mapReference: t.exposeString('mapReference', { nullable: true, description: 'Ordnance Survey map reference.' }),
    sasineSearch: t.exposeString('sasineSearch', { nullable: true, description: 'Sasine search sheet reference.' }),
    hectarageCode: t.exposeInt('hectarageCode', { nullable: true, description: 'Hectarage code.' }),
    addresses: t.field({ type: [AddressType], description: 'Postal addresses.', resolve: (r) => r.addresses }),
    boundaryNotes: t.expose('boundaryNotes', { type: BoundaryNotesType, nullable: true, description: 'Boundary notes.' }),
    notes: t.field({ type: [RightNoteType], description: 'Numbered notes.', resolve: (r) => r.notes }),
    schedules: t.field({ type: [ScheduleType], description: 'Schedules.', resolve: (r) => r.schedules }),
  }),
});

/** A party the title sheet names: its structured name, and the name as printed. */
const partyType = (name: string, description: string, printedDescription: string) =>
  builder.objectRef<Party>(name).implement({
    description,
    fields: (t) => ({
      name: t.expose('name', { type: PersonNameType, nullable: true, description: 'Structured name.' }),
      prettyPrint: t.exposeString('prettyPrint', { nullable: true, description: printedDescription }),
    }),
  });

const ProprietorType = partyType('Proprietor', 'A proprietor named in section B.', 'Name as printed on the title sheet.');
const ProprietorshipDetailType = builder.objectRef<Proprietorship['details'][number]>('ProprietorshipDetail').implement({
  description: 'Proprietors sharing one address.',
  fields: (t) => ({
    address: t.expose('address', { type: AddressType, nullable: true, description: 'Their address.' }),
    proprietors: t.field({ type: [ProprietorType], description: 'The proprietors.', resolve: (d) => d.proprietors }),
  }),
});
const DetailedProprietorshipType = builder.objectRef<Proprietorship>('DetailedProprietorship').implement({
  description: 'Section B of the title sheet: a proprietorship entry.',
  fields: (t) => ({
    entryNumber: t.exposeInt('entryNumber', { description: 'Entry number.' }),
    description: t.exposeString('description', { nullable: true, description: 'The entry as printed.' }),
    details: t.field({ type: [ProprietorshipDetailType], description: 'Proprietors.', resolve: (p) => p.details }),
    considerationEntries: t.field({
      type: [ConsiderationEntryType],
      description: 'Consideration paid.',
      resolve: (p) => p.considerationEntries,
    }),
  }),
});

const DebtorType = partyType('Debtor', 'A debtor under a standard security.', 'Name as printed.');
const RegisteredSecurityType = builder.objectRef<Security>('RegisteredSecurity').implement({
  description: 'Section C of the title sheet: a standard security.',
  fields: (t) => ({
    entryNumber: t.exposeInt('entryNumber', { description: 'Entry number.' }),
    specification: t.exposeString('specification', { nullable: true, description: 'Specification.' }),
    creditor: t.exposeString('creditor', { nullable: true, description: 'The creditor (lender).' }),
    dateOfRegistration: t.field({
      type: 'Date',
      nullable: true,
      description: 'Date of registration.',
      resolve: (s) => s.date?.registration,
    }),
    notes: t.exposeStringList('notes', { description: 'Notes on the security.' }),
    debtors: t.field({ type: [DebtorType], description: 'Debtors.', resolve: (s) => s.debtors }),
  }),
});

const BurdenEntryType = builder.objectRef<Burden['entries'][number]>('BurdenEntry').implement({
  description: 'A burden entry in section D.',
  fields: (t) => ({
    entryNumber: t.exposeInt('entryNumber', { description: 'Entry number.' }),
    preamble: t.exposeString('preamble', { nullable: true, description: 'Preamble to the burden.' }),
    text: t.exposeString('text', { nullable: true, description: 'Text of the burden.' }),
    dateOfRecording: t.expose('dateOfRecording', { type: 'Date', nullable: true, description: 'Date of recording.' }),
  }),
});
const BurdenPartType = builder.objectRef<Burden>('BurdenPart').implement({
  description: 'A part of section D: burdens from one deed or title.',
  fields: (t) => ({
    partNumber: t.exposeInt('partNumber', { description: 'Part number.' }),
    description: t.exposeString('description', { nullable: true, description: 'What the part holds.' }),
    titleNumber: t.expose('titleNumber', { type: 'TitleNumber', nullable: true, description: 'Title it comes from.' }),
    entries: t.field({ type: [BurdenEntryType], description: 'Entries.', resolve: (b) => b.entries }),
  }),
});
const PlotShareType = builder.objectRef<TitleDetails['sharingPlots'][number]>('PlotShare').implement({
  description: 'A share in a shared plot (or of a sharing title).',
  fields: (t) => ({
    titleNumber: t.expose('titleNumber', { type: 'TitleNumber', description: 'The other title.' }),
    share: t.exposeString('share', { nullable: true, description: 'The share, e.g. 1/4.' }),
  }),
});

const TitleDetailsType = builder.objectRef<TitleDetails>('TitleDetails').implement({
  description:
    'Full title sheet data: right (with notes, schedules, boundary notes),\nproprietorships with details, securities with debtors, burdens, sharing and shared plots.',
  fields: (t) => ({
    ...titleHeadingFields(t),
    right: t.expose('right', { type: DetailedTitleRightType, nullable: true, description: 'Section A: the property.' }),
    proprietorships: t.field({
      type: [DetailedProprietorshipType],
      description: 'Section B: proprietorship.',
      resolve: (d) => d.proprietorships,
    }),
    securities: t.field({
      type: [RegisteredSecurityType],
      description: 'Section C: securities.',
      resolve: (d) => d.securities,
    }),
    burdens: t.field({ type: [BurdenPartType], description: 'Section D: burdens.', resolve: (d) => d.burdens }),
    sharingPlots: t.field({ type: [PlotShareType], description: 'Titles sharing plots of this one.', resolve: (d) => d.sharingPlots }),
    sharedPlots: t.field({ type: [PlotShareType], description: 'Shared plots this title has a share in.', resolve: (d) => d.sharedPlots }),
  }),
});

chargeableMutation('purchaseTitleDetails', {
  description: 'Title details: proprietorship, consideration, securities, burdens (chargeable).',
  charge: (input, ctx) => ({
    products: ['TITLE_DATA_AND_PLANS'],
    call: (q) => ctx.register.titleDetails(input.titleNumber, q, ctx.callOptions),
  }),
  answer: (t) => ({
    details: t.field({
      type: TitleDetailsType,
      nullable: true,
      description: 'The title sheet; null on userErrors.',
      resolve: (p) => p.value?.data ?? null,
    }),
  }),
  charges: 'Charges made by this call (empty if already bought today).',
});
