/** MID15313, the full named fixture: 14 Dalhousie Road, Eskbank, Dalkeith. */
import type { Address, PendingApplication, TitleDetails } from '../../register/contract/wire';
import { person, polygonFromRadii, registeredTitle } from './build';

const home: Address = {
  number: 14,
  street: 'Dalhousie Road',
  locality: 'Eskbank',
  town: 'Dalkeith',
  postcode: 'EH22 3AB',
  uprn: '120012345678',
};
const garage: Address = {
  name: 'Garage 14A',
  street: 'Dalhousie Road',
  locality: 'Eskbank',
  town: 'Dalkeith',
  postcode: 'EH22 3AB',
  uprn: '120012345679',
};
const paddock: Address = {
  name: 'The Paddock',
  street: 'Dalhousie Road',
  locality: 'Eskbank',
  town: 'Dalkeith',
  postcode: 'EH22 3AD',
  uprn: '120012345690',
};

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
      considerationEntries: [{ dateOfEntry: '2019-06-28', dateOfRegistration: '2019-07-04', consideration: '£245,000' }],
    },
    {
      entryNumber: 2,
      description: 'MORAG ELSPETH MACLEOD, 3 Newbattle Terrace, Edinburgh EH10 4RU, as to the garage 14A only.',
      details: [
        {
          address: {
            number: 3,
            street: 'Newbattle Terrace',
            town: 'Edinburgh',
            postcode: 'EH10 4RU',
            county: 'Midlothian',
            country: 'Scotland',
          },
          proprietors: [person('Morag Elspeth', 'Macleod', 'Ms')],
        },
      ],
      considerationEntries: [{ dateOfEntry: '2022-11-01', dateOfRegistration: '2022-11-15', consideration: 'love, favour and affection' }],
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
    applicants: [
      {
        name: { first: 'Catriona', last: 'Kerr' },
        address: { number: 22, street: 'Lothian Street', town: 'Bonnyrigg', postcode: 'EH19 3AE' },
      },
    ],
  },
  {
    applicationNumber: 'MID24N004417',
    titleNumber: 'MID15313',
    applicationDate: '2025-02-03',
    type: { code: 'AN', prettyPrint: 'Advance notice' },
    consideration: '£312,500',
    subjects: [{ number: 14, street: 'Dalhousie Road', locality: 'Eskbank', town: 'Dalkeith', postcode: 'EH22 3AB' }],
    deeds: [
      {
        type: { code: 20, prettyPrint: 'Standard security' },
        agentNumber: '1877',
        info: 'Standard Security by Kerr to Bank of Scotland plc',
      },
    ],
    granters: [{ name: { first: 'Catriona', last: 'Kerr' } }],
    applicants: [
      {
        name: { company: 'Bank of Scotland plc' },
        address: { street: 'The Mound', town: 'Edinburgh', postcode: 'EH1 1YZ', country: 'Scotland' },
      },
    ],
    validFrom: '2025-02-03',
    validTo: '2025-03-10',
  },
];

export const mid15313 = registeredTitle(
  mid15313Details,
  [
    {
      summary: { type: 'PLAN', paperSize: 4, description: 'Title plan', lastUpdated: '2025-02-14' },
      drawing: {
        polygon: [
          [-18, -24],
          [16, -26],
          [21, 6],
          [4, 27],
          [-20, 19],
        ],
        mapReference: 'NT3366NW',
        scale: 1250,
      },
    },
    {
      summary: {
        type: 'SUPPLEMENTARY_PLAN',
        paperSize: 3,
        description: 'Supplementary plan: access track and paddock',
        lastUpdated: '2023-03-21',
      },
      drawing: { polygon: polygonFromRadii([40, 52, 47, 60, 38, 44, 55], 12), mapReference: 'NT3366NW', scale: 2500 },
    },
  ],
  mid15313Pending,
);
