/** The documents the benchmark sends: ours, and the peer's equivalents. */

/** The title summary fields, as a front end shows them. */
export const TITLE_QUERY = `query TitleSummary($titleNumber: TitleNumber!) {
  title(titleNumber: $titleNumber) {
    titleNumber status titleType searchSheet titleSheetUpdatedTo
    right { type description addresses { street town postcode } }
    proprietorships { considerationEntries { consideration } }
    plans { type paperSize description lastUpdated }
    applications { applicationNumber applicationDate type { code prettyPrint } }
  }
}`;

/**
 * The same fields through the Mesh peer (its generated schema: the REST body under `data`). The
 * Apollo Server peer takes TITLE_QUERY itself.
 */
export const PEER_TITLE_QUERY = `query TitleSummary($titleNumber: String!) {
  titleSummary(titleNumber: $titleNumber) {
    ... on titleSummary_200_response {
      data {
        titleNumber status titleType searchSheet date { titleSheetUpdatedTo }
        right { type description addresses { street town postcode } }
        proprietorships { considerationEntries { consideration } }
        plans { type paperSize description lastUpdated }
        applications { applicationNumber applicationDate type { code prettyPrint } }
      }
    }
    ... on Error { code message }
  }
}`;

export const TYPENAME_QUERY = '{ __typename }';

/** A front-end page: 20 titles with their securities, listed twice, a detail pane, and a reference list. */
export const PAGE_QUERY = `query Page($titleNumbers: [TitleNumber!]!, $first: TitleNumber!) {
  list: titles(titleNumbers: $titleNumbers) {
    titleNumber status right { description addresses { town postcode } }
    securities { id specification dateOfRegistration }
  }
  again: titles(titleNumbers: $titleNumbers) { titleNumber status securities { id } }
  detail: title(titleNumber: $first) { titleNumber plans { description } securities { id specification } }
  deedTypes: referenceList(path: "lr/application/deed/type") { name items { label value } }
}`;

/** 20 titles of every kind: full, minimal, draft, closed, absorbed, and generated ones. */
export const PAGE_TITLES = [
  'MID15313',
  'MID1234',
  'GLA5001',
  'EDN42',
  'ABN7',
  'FFE300',
  'REN9',
  ...Array.from({ length: 13 }, (_, i) => `BLK${i + 1}`),
];

export const BATCH_QUERY = `query Batch($titleNumbers: [TitleNumber!]!) {
  titles(titleNumbers: $titleNumbers) { titleNumber status securities { id specification } }
}`;

export const BATCH_QUERY_NO_SECURITIES = `query BatchSummaries($titleNumbers: [TitleNumber!]!) {
  titles(titleNumbers: $titleNumbers) { titleNumber status }
}`;

/** The page of BATCH_QUERY_NO_SECURITIES with @stream: each title is sent as soon as it is loaded. */
export const STREAM_QUERY = `query StreamSummaries($titleNumbers: [TitleNumber!]!) {
  titles(titleNumbers: $titleNumbers) @stream(initialCount: 0) { titleNumber status }
}`;

export const PURCHASE_PLANS = `mutation Buy($key: String!) {
  purchaseTitlePlans(fas: "0877", input: { titleNumber: "LAN50", idempotencyKey: $key }) {
    plans { planId downloadUrl }
    userErrors { code message }
  }
}`;

export const PEER_DOWNLOAD_PLAN = `query Plan($titleNumber: String!, $planId: String!) {
  downloadPlan(titleNumber: $titleNumber, planId: $planId) {
    ... on String_container { String }
    ... on Error { code message }
  }
}`;

/** The two documents the side-by-side experiments (bench/experiments) load: the floor and a title. */
export const SIDE_BY_SIDE_QUERIES = [
  ['{ __typename }', TYPENAME_QUERY, undefined],
  ['title', TITLE_QUERY, { titleNumber: 'MID15313' }],
] as const;
