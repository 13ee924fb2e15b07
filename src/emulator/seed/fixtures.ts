/**
 * The named title fixtures of register-emulator.md. Tests, examples and docs rely on these
 * exact values: MID15313 (full), MID1234 (minimal), GLA5001 (draft), EDN42, ABN7, FFE300,
 * REN9 (closed, cancelled, amalgamated, absorbed) and LAN50 (one very large plan).
 */
import type { Address, PendingApplication, TitleDetails } from '../../register/wire';
import { company, person, polygonFromRadii, reducedTitle, registeredTitle } from './build';
import type { TitleRecord } from './model';
import { opaqueId } from './prng';

const home: Address = { number: 14, street: 'Dalhousie Road', locality: 'Eskbank', town: 'Dalkeith', postcode: 'EH22 3AB', uprn: '120012345678' };
const garage: Address = { name: 'Garage 14A', street: 'Dalhousie Road', locality: 'Eskbank', town: 'Dalkeith', postcode: 'EH22 3AB', uprn: '120012345679' };
const paddock: Address = { name: 'The Paddock', street: 'Dalhousie Road', locality: 'Eskbank', town: 'Dalkeith', postcode: 'EH22 3AD', uprn: '120012345690' };

const mid15313Details: TitleDetails = {
  titleNumber: 'MID15313',
  titleType: 'GENERAL',
  status: 'REGISTERED',
  searchSheet: 'MID4412',
  date: { titleSheetUpdatedTo: '2025-02-14' },
  right: {
    type: 'OWNERSHIP',
    cadastralUnit: 'MID15313',
    mapReference: 'NT3366NW',
    sasineSearch: '68812',
    hectarageCode: 0,
    description:
      'Subjects 14 Dalhousie Road, Eskbank, Dalkeith EH22 3AB, with the garage 14A and the paddock adjoining, edged red on the cadastral map.',
    addresses: [home, garage, paddock],
    boundaryNotes: {
      planType: 'CADASTRAL',
      notes: [
        { prettyPrint: 'The boundary on the south-west is the centre line of the mutual gable wall.' },
        { prettyPrint: 'The boundary on the north-east follows the face of the stone wall tinted brown.' },
      ],
    },
    notes: [
      { entryNo: 1, text: 'The minerals are excepted.' },
      { entryNo: 2, text: 'The paddock tinted blue is subject to a servitude right of access in favour of MID15299.' },
    ],
    schedules: [
      {
        type: 'SERVITUDES',
        description: 'Schedule of servitudes',
        entries: [
          {
            entryNo: 1,
            subEntries: [
              {
                realBurdens: 'Servitude right of pedestrian and vehicular access over the track tinted blue',
                benefittedProperty: 'MID15299 (12 Dalhousie Road)',
                burdenedProperty: 'MID15313 (14 Dalhousie Road)',
              },
            ],
          },
        ],
      },
    ],
  },
  proprietorships: [
    {
      entryNumber: 1,
      description: 'IAIN ALASDAIR MACLEOD and FIONA MARGARET MACLEOD, spouses, 14 Dalhousie Road, Eskbank, Dalkeith EH22 3AB.',
      details: [
        {
          address: { ...home, country: 'Scotland' },
          proprietors: [person('Iain Alasdair', 'Macleod', 'Mr'), person('Fiona Margaret', 'Macleod', 'Mrs')],
        },
      ],
      considerationEntries: [
        { dateOfEntry: '2019-06-28', dateOfRegistration: '2019-07-04', consideration: '£245,000' },
      ],
    },
    {
      entryNumber: 2,
      description: 'MORAG ELSPETH MACLEOD, 3 Newbattle Terrace, Edinburgh EH10 4RU, as to the garage 14A only.',
      details: [
        {
          address: { number: 3, street: 'Newbattle Terrace', town: 'Edinburgh', postcode: 'EH10 4RU', county: 'Midlothian', country: 'Scotland' },
          proprietors: [person('Morag Elspeth', 'Macleod', 'Ms')],
        },
      ],
      considerationEntries: [
        { dateOfEntry: '2022-11-01', dateOfRegistration: '2022-11-15', consideration: 'love, favour and affection' },
      ],
    },
  ],
  securities: [
    {
      entryNumber: 1,
      specification: 'Standard Security for all sums due and to become due',
      creditor: 'Santander UK plc',
      date: { registration: '2019-07-04' },
      notes: ['Standard Security by IAIN ALASDAIR MACLEOD and FIONA MARGARET MACLEOD to SANTANDER UK PLC.'],
      debtors: [person('Iain Alasdair', 'Macleod'), person('Fiona Margaret', 'Macleod')],
    },
    {
      entryNumber: 2,
      specification: 'Standard Security for £18,500',
      creditor: 'Hector James Robertson, 7 Lasswade Road, Bonnyrigg',
      date: { registration: '2023-03-21' },
      notes: ['Postponed to the Standard Security in entry 1 by Ranking Agreement registered 21 Mar. 2023.'],
      debtors: [person('Iain Alasdair', 'Macleod')],
    },
  ],
  burdens: [
    {
      partNumber: 1,
      description: 'Real burdens',
      titleNumber: 'MID15313',
      entries: [
        {
          entryNumber: 1,
          preamble:
            'Feu Disposition by the Marquess of Lothian to Andrew Dickson, recorded G.R.S. (Midlothian) 12 Mar. 1962, of subjects of which the subjects in this title form part, contains the following burdens:',
          text: 'The subjects shall be used as a private dwellinghouse only; no building shall be erected without the written consent of the superior.',
          dateOfRecording: '1962-03-12',
        },
        {
          entryNumber: 2,
          preamble: 'Deed of Conditions by Eskbank Developments Limited, registered 4 Aug. 1998, contains the following burdens:',
          text: 'The proprietors shall maintain the boundary walls and the access track tinted blue in good repair, sharing the cost equally.',
          dateOfRecording: '1998-08-04',
        },
      ],
    },
  ],
  sharingPlots: [{ titleNumber: 'MID15299', share: 'one-half pro indiviso' }],
  sharedPlots: [{ titleNumber: 'MID15400', share: 'one-sixth pro indiviso' }],
};

const mid15313Pending: PendingApplication[] = [
  {
    applicationNumber: 'MID24A018833',
    titleNumber: 'MID15313',
    applicationDate: '2025-01-20',
    type: { code: 'DW', prettyPrint: 'Dealing with whole' },
    status: { code: 'C', prettyPrint: 'Confirmed' },
    consideration: '£312,500',
    subjects: [{ number: 14, street: 'Dalhousie Road', locality: 'Eskbank', town: 'Dalkeith', postcode: 'EH22 3AB' }],
    deeds: [{ type: { code: 11, prettyPrint: 'Disposition' }, agentNumber: '1877', info: 'Disposition by Macleod to Kerr' }],
    granters: [
      { name: { first: 'Iain Alasdair', last: 'Macleod' }, address: { ...home } },
      { name: { first: 'Fiona Margaret', last: 'Macleod' }, address: { ...home } },
    ],
    applicants: [{ name: { first: 'Catriona', last: 'Kerr' }, address: { number: 22, street: 'Lothian Street', town: 'Bonnyrigg', postcode: 'EH19 3AE' } }],
  },
  {
    applicationNumber: 'MID24N004417',
    titleNumber: 'MID15313',
    applicationDate: '2025-02-03',
    type: { code: 'AN', prettyPrint: 'Advance notice' },
    consideration: '£312,500',
    subjects: [{ number: 14, street: 'Dalhousie Road', locality: 'Eskbank', town: 'Dalkeith', postcode: 'EH22 3AB' }],
    deeds: [{ type: { code: 20, prettyPrint: 'Standard security' }, agentNumber: '1877', info: 'Standard Security by Kerr to Bank of Scotland plc' }],
    granters: [{ name: { first: 'Catriona', last: 'Kerr' } }],
    applicants: [{ name: { company: 'Bank of Scotland plc' }, address: { street: 'The Mound', town: 'Edinburgh', postcode: 'EH1 1YZ', country: 'Scotland' } }],
    validFrom: '2025-02-03',
    validTo: '2025-03-10',
  },
];

const mid15313 = registeredTitle(
  mid15313Details,
  [
    {
      summary: { type: 'PLAN', paperSize: 4, description: 'Title plan', lastUpdated: '2025-02-14' },
      drawing: { polygon: [[-18, -24], [16, -26], [21, 6], [4, 27], [-20, 19]], mapReference: 'NT3366NW', scale: 1250 },
    },
    {
      summary: { type: 'SUPPLEMENTARY_PLAN', paperSize: 3, description: 'Supplementary plan: access track and paddock', lastUpdated: '2023-03-21' },
      drawing: { polygon: polygonFromRadii([40, 52, 47, 60, 38, 44, 55], 12), mapReference: 'NT3366NW', scale: 2500 },
    },
  ],
  mid15313Pending,
);

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
      addresses: [{ subBuilding: '2F1', number: 9, street: 'Marchmont Crescent', town: 'Edinburgh', postcode: 'EH9 1HN', uprn: '906700211453' }],
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

const gla5001: TitleRecord = reducedTitle('GLA5001', 'DRAFT', 'GENERAL', [], [
  {
    applicationNumber: 'GLA25F000912',
    titleNumber: 'GLA5001',
    applicationDate: '2025-01-08',
    type: { code: 'FR', prettyPrint: 'First registration' },
    status: { code: 'C', prettyPrint: 'Confirmed' },
    consideration: '£410,000',
    subjects: [{ number: 31, street: 'Kelvin Drive', locality: 'Kelvinside', town: 'Glasgow', postcode: 'G20 8QG' }],
    deeds: [{ type: { code: 11, prettyPrint: 'Disposition' }, agentNumber: '5877', info: 'Disposition by Clyde Estates Limited to Drummond' }],
    granters: [{ name: company('Clyde Estates Limited').name }],
    applicants: [{ name: { first: 'Ruaridh', last: 'Drummond' } }],
  },
]);

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
