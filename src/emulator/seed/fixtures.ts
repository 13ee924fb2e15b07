/**
 * The named title fixtures of docs/emulator.md. Tests, examples and docs rely on these
 * exact values: MID15313 (full), MID1234 (minimal), GLA5001 (draft), EDN42, ABN7, FFE300,
 * REN9 (closed, cancelled, amalgamated, absorbed) and LAN50 (one very large plan).
 */
import { company, person, polygonFromRadii, reducedTitle, registeredTitle } from './build';
import { mid15313 } from './mid15313';
import type { TitleRecord } from './model';
import { opaqueId } from './prng';

const mid1234: TitleRecord = registeredTitle(
  {
    titleNumber: 'MID1234',
    titleType: 'GENERAL',
    status: 'REGISTERED',
    searchSheet: 'MID210',
    date: { titleSheetUpdatedTo: '2024-09-30' },
    right: {
      type: 'OWNERSHIP',
      cadastralUnit: 'MID1234',
      description: 'Subjects 2F1, 9 Marchmont Crescent, Edinburgh EH9 1HN.',
      addresses: [
        { subBuilding: '2F1', number: 9, street: 'Marchmont Crescent', town: 'Edinburgh', postcode: 'EH9 1HN', uprn: '906700211453' },
      ],
      notes: [],
      schedules: [],
    },
    proprietorships: [
      {
        entryNumber: 1,
        description: 'EILIDH GRANT, 2F1, 9 Marchmont Crescent, Edinburgh EH9 1HN.',
        details: [{ proprietors: [person('Eilidh', 'Grant')] }],
        considerationEntries: [{ dateOfEntry: '2016-05-13', dateOfRegistration: '2016-05-20', consideration: '£182,000' }],
      },
    ],
    securities: [],
    burdens: [],
    sharingPlots: [],
    sharedPlots: [],
  },
  [],
  [],
);

const gla5001: TitleRecord = reducedTitle(
  'GLA5001',
  'DRAFT',
  'GENERAL',
  [],
  [
    {
      applicationNumber: 'GLA25F000912',
      titleNumber: 'GLA5001',
      applicationDate: '2025-01-08',
      type: { code: 'FR', prettyPrint: 'First registration' },
      status: { code: 'C', prettyPrint: 'Confirmed' },
      consideration: '£410,000',
      subjects: [{ number: 31, street: 'Kelvin Drive', locality: 'Kelvinside', town: 'Glasgow', postcode: 'G20 8QG' }],
      deeds: [
        { type: { code: 11, prettyPrint: 'Disposition' }, agentNumber: '5877', info: 'Disposition by Clyde Estates Limited to Drummond' },
      ],
      granters: [{ name: company('Clyde Estates Limited').name }],
      applicants: [{ name: { first: 'Ruaridh', last: 'Drummond' } }],
    },
  ],
);

const ren9 = reducedTitle('REN9', 'ABSORBED', 'GENERAL', [
  {
    id: opaqueId('REN9:security:1', 12),
    applicationType: 'PAPER',
    specification: 'Standard Security for all sums due and to become due',
    dateOfRegistration: '2008-10-02',
    source: 'TITLE',
  },
]);

const lan50 = registeredTitle(
  {
    titleNumber: 'LAN50',
    titleType: 'GENERAL',
    status: 'REGISTERED',
    searchSheet: 'LAN77',
    date: { titleSheetUpdatedTo: '2024-11-05' },
    right: {
      type: 'OWNERSHIP',
      cadastralUnit: 'LAN50',
      description: 'Subjects Westfield Farm, Carnwath, Lanark ML11 8LA, extending to 214.6 hectares.',
      addresses: [{ name: 'Westfield Farm', town: 'Carnwath', locality: 'Lanark', postcode: 'ML11 8LA', uprn: '131000456712' }],
      hectarageCode: 214,
      notes: [],
      schedules: [],
    },
    proprietorships: [
      {
        entryNumber: 1,
        description: 'WESTFIELD FARMING PARTNERSHIP, Westfield Farm, Carnwath.',
        details: [{ proprietors: [company('Westfield Farming Partnership')] }],
        considerationEntries: [{ dateOfEntry: '2011-11-11', dateOfRegistration: '2011-12-02', consideration: '£1,850,000' }],
      },
    ],
    securities: [],
    burdens: [],
    sharingPlots: [],
    sharedPlots: [],
  },
  [
    {
      summary: { type: 'PLAN', paperSize: 0, description: 'Title plan (large-format survey scan)', lastUpdated: '2024-11-05' },
      drawing: { polygon: polygonFromRadii([620, 700, 810, 760, 690, 540, 580, 650, 720], 5), mapReference: 'NS9846', scale: 10000 },
      large: true,
    },
  ],
  [],
);

export const FIXTURE_TITLES: ReadonlyMap<string, TitleRecord> = new Map(
  [
    mid15313,
    mid1234,
    gla5001,
    reducedTitle('EDN42', 'CLOSED'),
    reducedTitle('ABN7', 'CANCELLED'),
    reducedTitle('FFE300', 'AMALGAMATED'),
    ren9,
    lan50,
  ].map((t) => [t.titleNumber, t]),
);
