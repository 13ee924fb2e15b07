/** Advance notices and pending applications (service-spec 2.7, chargeable). */
import { builder } from '../builder';
import type { PendingApplication, PendingApplicationsResponse } from '../../register/contract/wire';
import { chargeableMutation } from './chargeable';
import { AddressType, CodeLabelType, PersonNameType } from './common';

const DeedTypeLabelType = builder.objectRef<{ code: number; prettyPrint?: string }>('DeedTypeLabel').implement({
  description: 'A deed type code with its label.',
  fields: (t) => ({
    code: t.exposeInt('code', { nullable: true, description: 'Deed type code, e.g. 20.' }),
    prettyPrint: t.exposeString('prettyPrint', { nullable: true, description: 'Label, e.g. Standard security.' }),
  }),
});
const ApplicationDeedType = builder.objectRef<PendingApplication['deeds'][number]>('ApplicationDeed').implement({
  description: 'A deed lodged with an application.',
  fields: (t) => ({
    type: t.expose('type', { type: DeedTypeLabelType, nullable: true, description: 'Deed type.' }),
    agentNumber: t.exposeString('agentNumber', { nullable: true, description: "The lodging agent's number." }),
    info: t.exposeString('info', { nullable: true, description: 'Further information.' }),
  }),
});
const ApplicationPartyType = builder.objectRef<PendingApplication['granters'][number]>('ApplicationParty').implement({
  description: 'A granter or applicant of an application.',
  fields: (t) => ({
    name: t.expose('name', { type: PersonNameType, nullable: true, description: "The party's name." }),
    address: t.expose('address', { type: AddressType, nullable: true, description: 'Address.' }),
  }),
});
const PendingApplicationType = builder.objectRef<PendingApplication>('PendingApplication').implement({
  description: 'An advance notice or pending application on the title.',
  fields: (t) => ({
    applicationNumber: t.exposeString('applicationNumber', { description: 'Application number.' }),
    titleNumber: t.expose('titleNumber', { type: 'TitleNumber', nullable: true, description: 'Title applied over.' }),
    parentTitleNumber: t.expose('parentTitleNumber', {
      type: 'TitleNumber',
      nullable: true,
      description: 'Parent title, for a transfer of part.',
    }),
    applicationDate: t.expose('applicationDate', { type: 'Date', nullable: true, description: 'Date lodged.' }),
    type: t.expose('type', { type: CodeLabelType, nullable: true, description: 'Application type, e.g. AN or DW.' }),
    status: t.expose('status', { type: CodeLabelType, nullable: true, description: 'Status, e.g. C (Confirmed).' }),
    consideration: t.exposeString('consideration', { nullable: true, description: 'Consideration, as text.' }),
    subjects: t.field({ type: [AddressType], description: 'Subjects (addresses).', resolve: (a) => a.subjects }),
    deeds: t.field({ type: [ApplicationDeedType], description: 'Deeds lodged.', resolve: (a) => a.deeds }),
    granters: t.field({ type: [ApplicationPartyType], description: 'Granters.', resolve: (a) => a.granters }),
    applicants: t.field({ type: [ApplicationPartyType], description: 'Applicants.', resolve: (a) => a.applicants }),
    validFrom: t.expose('validFrom', { type: 'Date', nullable: true, description: 'Advance notice valid from.' }),
    validTo: t.expose('validTo', { type: 'Date', nullable: true, description: 'Advance notice valid to.' }),
  }),
});
const PendingApplicationsType = builder.objectRef<PendingApplicationsResponse['list']>('PendingApplications').implement({
  description: 'All advance notices and pending applications of a title.',
  fields: (t) => ({
    results: t.exposeInt('results', { description: 'How many there are.' }),
    items: t.field({ type: [PendingApplicationType], description: 'The applications.', resolve: (l) => l.items }),
  }),
});

chargeableMutation('purchasePendingApplications', {
  description: 'All advance notices and pending applications of a registered or draft title (chargeable).',
  charge: (input, ctx) => ({
    products: ['PENDING_APPLICATIONS'],
    call: (q) => ctx.register.pendingApplications(input.titleNumber, q, ctx.callOptions),
  }),
  answer: (t) => ({
    pendingApplications: t.field({
      type: PendingApplicationsType,
      nullable: true,
      description: 'The applications; null on userErrors.',
      resolve: (p) => p.value?.list ?? null,
    }),
  }),
});
