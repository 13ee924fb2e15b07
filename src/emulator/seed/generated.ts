/**
 * BLK1 … BLK5000: registered titles generated reproducibly (one seeded PRNG per title number)
 * and lazily, on first use, so that start-up stays fast. Varied, realistic Scottish content;
 * some titles have no plans, no securities or no pending applications.
 */
import type { Address, PendingApplication, TitleDetails } from '../../register/contract/wire';
import { company, oneLine, person, polygonFromRadii, registeredTitle } from './build';
import { SECURITY_LENDERS } from './creditors';
import type { PlanRecord, TitleRecord } from './model';
import { addDays, createRng, type Rng } from './prng';

export const GENERATED_PREFIX = 'BLK';
export const GENERATED_COUNT = 5000;

const TOWNS: readonly { town: string; district: string; county: string; streets: readonly string[] }[] = [
  {
    town: 'Edinburgh',
    district: 'EH',
    county: 'Midlothian',
    streets: ['Marchmont Road', 'Bruntsfield Place', 'Leith Walk', 'Comely Bank Avenue', 'Easter Road', 'Morningside Drive'],
  },
  {
    town: 'Glasgow',
    district: 'G',
    county: 'Lanark',
    streets: ['Hyndland Road', 'Byres Road', 'Paisley Road West', 'Dumbarton Road', 'Great Western Road', 'Pollokshaws Road'],
  },
  {
    town: 'Aberdeen',
    district: 'AB',
    county: 'Aberdeen',
    streets: ['Union Grove', 'Great Western Road', 'King Street', 'Rosemount Place', 'Holburn Street'],
  },
  {
    town: 'Dundee',
    district: 'DD',
    county: 'Angus',
    streets: ['Perth Road', 'Broughty Ferry Road', 'Strathmartine Road', 'Magdalen Yard Road'],
  },
  {
    town: 'Inverness',
    district: 'IV',
    county: 'Inverness',
    streets: ['Culduthel Road', 'Crown Drive', 'Old Edinburgh Road', 'Telford Street'],
  },
  { town: 'Perth', district: 'PH', county: 'Perth', streets: ['Glasgow Road', 'Dunkeld Road', 'Atholl Street', 'Craigie Place'] },
  {
    town: 'Stirling',
    district: 'FK',
    county: 'Stirling',
    streets: ['Causewayhead Road', 'Snowdon Place', 'Albert Place', 'Kenilworth Road'],
  },
  { town: 'Paisley', district: 'PA', county: 'Renfrew', streets: ['Glasgow Road', 'Main Road', 'Stanely Road', 'Causeyside Street'] },
  { town: 'Ayr', district: 'KA', county: 'Ayr', streets: ['Racecourse Road', 'Holmston Road', 'Prestwick Road', 'Midton Road'] },
  { town: 'Dumfries', district: 'DG', county: 'Dumfries', streets: ['Annan Road', 'Edinburgh Road', 'Moffat Road', 'Lovers Walk'] },
  { town: 'Kirkcaldy', district: 'KY', county: 'Fife', streets: ['Bennochy Road', 'Victoria Road', 'Dunnikier Road', 'Abbotshall Road'] },
  { town: 'Elgin', district: 'IV', county: 'Moray', streets: ['South Street', 'Duff Avenue', 'Mayne Road', 'Moss Street'] },
  { town: 'Galashiels', district: 'TD', county: 'Selkirk', streets: ['Abbotsford Road', 'Gala Park', 'Scott Crescent', 'Melrose Road'] },
  { town: 'Oban', district: 'PA', county: 'Argyll', streets: ['Corran Esplanade', 'Dalriach Road', 'Soroba Road', 'Glencruitten Road'] },
];
const LOCALITIES = ['', '', '', 'Newington', 'Partick', 'Cults', 'Broughty Ferry', 'Lochardil', 'Craigie', 'Bridge of Allan'];
const FIRST_NAMES = [
  'Ailsa',
  'Alasdair',
  'Calum',
  'Catriona',
  'Duncan',
  'Eilidh',
  'Ewan',
  'Fiona',
  'Fraser',
  'Hamish',
  'Isla',
  'Kirsty',
  'Lachlan',
  'Mairi',
  'Morven',
  'Niall',
  'Rhona',
  'Ross',
  'Seonaidh',
  'Struan',
];
const SURNAMES = [
  'Anderson',
  'Buchanan',
  'Cameron',
  'Campbell',
  'Crawford',
  'Douglas',
  'Ferguson',
  'Fraser',
  'Gillies',
  'Henderson',
  'Kennedy',
  'MacDonald',
  'MacKenzie',
  'MacLeod',
  'Munro',
  'Murray',
  'Paterson',
  'Robertson',
  'Sinclair',
  'Stewart',
];
const COMPANIES = [
  'Caledonian Property Holdings Limited',
  'Forth Valley Lets LLP',
  'Highland Homes (Scotland) Limited',
  'Tayside Housing Association Limited',
  'Clyde Estates Limited',
];
const BURDENS = [
  'The subjects shall be used as a private dwellinghouse only and for no other purpose.',
  'No trade or business shall be carried on within the subjects.',
  'The proprietors shall maintain the mutual boundary walls and fences in good repair, the cost being shared equally.',
  'No building or erection shall be placed on the garden ground without the consent of the adjoining proprietors.',
  'The proprietors shall be liable for a one-sixth share of the cost of maintaining the roof, common stair and back green.',
];
const PREAMBLES = [
  'Feu Charter by the Trustees of the late Sir John Stirling-Maxwell, recorded G.R.S. ({county}) {date}, contains the following burdens:',
  'Deed of Conditions by {developer}, registered {date}, contains the following burdens:',
  'Disposition by {seller}, recorded G.R.S. ({county}) {date}, contains the following burdens:',
];

function postcode(r: Rng, district: string): string {
  return `${district}${r.int(1, 49)} ${r.int(1, 9)}${r.letters(2).replace(/[CIKMOV]/g, 'A')}`;
}

function isoDate(r: Rng, fromYear: number, toYear: number): string {
  const y = r.int(fromYear, toYear);
  return `${y}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
}

function consideration(r: Rng): string {
  const x = r.next();
  if (x < 0.08) return 'love, favour and affection';
  if (x < 0.11) return 'no monetary consideration';
  return `£${(r.int(45, 900) * 1000 + r.pick([0, 0, 500, 250])).toLocaleString('en-GB')}`;
}

export function generateTitle(titleNumber: string): TitleRecord | undefined {
  const m = /^BLK([0-9]+)$/.exec(titleNumber);
  if (!m || m[1]!.startsWith('0')) return undefined;
  const n = Number(m[1]);
  if (n < 1 || n > GENERATED_COUNT) return undefined;
  const r = createRng(titleNumber);
  const place = r.pick(TOWNS);
  const street = r.pick(place.streets);
  const number = r.int(1, 240);
  const pc = postcode(r, place.district);
  const locality = r.pick(LOCALITIES);
  const flat = r.chance(0.35) ? `${r.int(0, 3)}F${r.int(1, 3)}` : undefined;
  const base: Address = {
    ...(flat ? { subBuilding: flat } : {}),
    number,
    street,
    ...(locality ? { locality } : {}),
    town: place.town,
    postcode: pc,
  };
  const addresses: Address[] = [{ ...base, uprn: `90${r.digits(10)}` }];
  if (r.chance(0.25)) addresses.push({ name: `Garage ${number}A`, street, town: place.town, postcode: pc, uprn: `90${r.digits(10)}` });

  const entryDate = isoDate(r, 1998, 2024);
  const byCompany = r.chance(0.12);
  const proprietors = byCompany
    ? [company(r.pick(COMPANIES))]
    : Array.from({ length: r.int(1, 2) }, () => person(r.pick(FIRST_NAMES), r.pick(SURNAMES)));
  const names = proprietors.map((p) => p.prettyPrint).join(' and ');

  const securities: TitleDetails['securities'] = Array.from({ length: r.pick([0, 0, 1, 1, 1, 2]) }, (_, i) => {
    const lender = r.pick(SECURITY_LENDERS);
    return {
      entryNumber: i + 1,
      specification: r.chance(0.8)
        ? 'Standard Security for all sums due and to become due'
        : `Standard Security for £${(r.int(10, 90) * 1000).toLocaleString('en-GB')}`,
      creditor: lender.designation,
      date: { registration: addDays(entryDate, 7 + i * r.int(200, 2000)) },
      notes: [`Standard Security by ${names} to ${lender.designation.toUpperCase()}.`],
      debtors: proprietors.map((p) => ({ ...p })),
    };
  });

  const burdenEntries = Array.from({ length: r.int(0, 3) }, (_, i) => {
    const date = isoDate(r, 1890, 1995);
    const preamble = r
      .pick(PREAMBLES)
      .replace('{county}', place.county)
      .replace('{date}', date)
      .replace('{developer}', r.pick(COMPANIES))
      .replace('{seller}', `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}`);
    return { entryNumber: i + 1, preamble, text: r.pick(BURDENS), dateOfRecording: date };
  });

  const plans: PlanRecord[] = Array.from({ length: r.pick([0, 1, 1, 1, 2]) }, (_, i) => ({
    summary: {
      type: i === 0 ? 'PLAN' : 'SUPPLEMENTARY_PLAN',
      paperSize: r.pick([3, 4]),
      description: i === 0 ? 'Title plan' : 'Supplementary plan',
      lastUpdated: addDays(entryDate, 14),
    },
    drawing: {
      polygon: polygonFromRadii(
        Array.from({ length: r.int(4, 8) }, () => r.int(12, 40)),
        r.int(0, 89),
      ),
      mapReference: `N${r.pick(['S', 'T', 'J', 'H', 'O'])}${r.digits(4)}${r.pick(['NW', 'NE', 'SW', 'SE'])}`,
      scale: r.pick([1250, 1250, 2500]),
    },
  }));

  const pending: PendingApplication[] = r.chance(0.2)
    ? [
        {
          applicationNumber: `${place.district}${r.digits(2)}A${r.digits(6)}`,
          titleNumber,
          applicationDate: isoDate(r, 2024, 2025),
          type: { code: r.pick(['DW', 'DW', 'TP', 'TS']), prettyPrint: 'Dealing with whole' },
          status: { code: 'C', prettyPrint: 'Confirmed' },
          consideration: consideration(r),
          subjects: [{ ...base }],
          deeds: [{ type: { code: 11, prettyPrint: 'Disposition' }, agentNumber: String(r.int(1000, 99999)), info: 'Disposition' }],
          granters: proprietors.map((p) => ({ name: p.name })),
          applicants: [{ name: { first: r.pick(FIRST_NAMES), last: r.pick(SURNAMES) } }],
        },
      ]
    : [];
  for (const p of pending) {
    p.type!.prettyPrint = { DW: 'Dealing with whole', TP: 'Transfer of part', TS: 'Transfer of share' }[p.type!.code as 'DW'];
  }

  const details: TitleDetails = {
    titleNumber,
    titleType: 'GENERAL',
    status: 'REGISTERED',
    searchSheet: `${place.district}${r.int(100, 9999)}`,
    date: { titleSheetUpdatedTo: addDays(entryDate, r.int(10, 400)) },
    right: {
      type: 'OWNERSHIP',
      cadastralUnit: titleNumber,
      mapReference: plans[0]?.drawing.mapReference,
      hectarageCode: 0,
      description: `Subjects ${oneLine(base)}, edged red on the cadastral map.`,
      addresses,
      notes: r.chance(0.3) ? [{ entryNo: 1, text: 'The minerals are excepted.' }] : [],
      schedules: [],
    },
    proprietorships: [
      {
        entryNumber: 1,
        description: `${names}, ${oneLine(base)}.`,
        details: [{ address: { ...base, county: place.county, country: 'Scotland' }, proprietors }],
        considerationEntries: [
          { dateOfEntry: entryDate, dateOfRegistration: addDays(entryDate, r.int(3, 40)), consideration: consideration(r) },
        ],
      },
    ],
    securities,
    burdens: burdenEntries.length ? [{ partNumber: 1, description: 'Real burdens', titleNumber, entries: burdenEntries }] : [],
    sharingPlots: [],
    sharedPlots: flat ? [{ titleNumber: `${GENERATED_PREFIX}${((n + 2500) % GENERATED_COUNT) + 1}`, share: 'one-sixth pro indiviso' }] : [],
  };
  return registeredTitle(details, plans, pending);
}
