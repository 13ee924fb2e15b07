/** Small value types shared by several domains: addresses, names, coded labels, consideration. */
import { builder } from '../builder';
import type { Address as WireAddress, Name as WireName } from '../../register/contract/wire';

export const AddressType = builder.objectRef<WireAddress>('Address').implement({
  description: 'A postal address as the register holds it.',
  fields: (t) => ({
    subBuilding: t.exposeString('subBuilding', { nullable: true, description: 'Flat or unit within the building.' }),
    name: t.exposeString('name', { nullable: true, description: 'Building name.' }),
    number: t.exposeInt('number', { nullable: true, description: 'Street number.' }),
    street: t.exposeString('street', { nullable: true, description: 'Street.' }),
    locality: t.exposeString('locality', { nullable: true, description: 'Locality within the town.' }),
    town: t.exposeString('town', { nullable: true, description: 'Post town.' }),
    postcode: t.exposeString('postcode', { nullable: true, description: 'Postcode.' }),
    uprn: t.exposeString('uprn', { nullable: true, description: 'Unique Property Reference Number (12 digits).' }),
    organisation: t.exposeString('organisation', {
      nullable: true,
      description: 'Organisation (proprietor and party addresses only).',
    }),
    county: t.exposeString('county', { nullable: true, description: 'County (proprietor and party addresses only).' }),
    country: t.exposeString('country', { nullable: true, description: 'Country (proprietor and party addresses only).' }),
  }),
});

export const PersonNameType = builder.objectRef<WireName>('PersonName').implement({
  description: 'The name of a person or company in title data.',
  fields: (t) => ({
    prefix: t.exposeString('prefix', { nullable: true, description: 'Title or prefix, e.g. Mrs.' }),
    first: t.exposeString('first', { nullable: true, description: 'Forenames.' }),
    last: t.exposeString('last', { nullable: true, description: 'Surname.' }),
    company: t.exposeString('company', { nullable: true, description: 'Company name, for a company.' }),
  }),
});

export const CodeLabelType = builder.objectRef<{ code: string; prettyPrint?: string }>('CodeLabel').implement({
  description: 'A register code with its printable label.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The register code, e.g. AN or C.' }),
    prettyPrint: t.exposeString('prettyPrint', { nullable: true, description: 'Human label, e.g. Confirmed.' }),
  }),
});

export interface WireConsideration {
  dateOfEntry?: string;
  dateOfRegistration?: string;
  consideration?: string;
}
export const ConsiderationEntryType = builder.objectRef<WireConsideration>('ConsiderationEntry').implement({
  description: 'Price or other consideration paid, with the dates of entry and registration.',
  fields: (t) => ({
    dateOfEntry: t.expose('dateOfEntry', { type: 'Date', nullable: true, description: 'Date of entry.' }),
    dateOfRegistration: t.expose('dateOfRegistration', {
      type: 'Date',
      nullable: true,
      description: 'Date of registration.',
    }),
    consideration: t.exposeString('consideration', {
      nullable: true,
      description: 'Consideration as text, e.g. "£245,000" or "love, favour and affection".',
    }),
  }),
});
