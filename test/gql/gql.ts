/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query DocsStatus($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }": typeof types.DocsStatusDocument,
    "query DocsType($t: TitleNumber!) { title(titleNumber: $t) { titleNumber titleType } }": typeof types.DocsTypeDocument,
    "mutation DocsOrder($input: OrderTitleDocumentInput!) { orderTitleDocument(fas: \"5555\", input: $input) { document { titleNumber downloadUrl } } }": typeof types.DocsOrderDocument,
    "query DocsUrql($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }": typeof types.DocsUrqlDocument,
    "query DocsDeferred($t: TitleNumber!) { title(titleNumber: $t) { titleNumber ... @defer { plans { description } } } }": typeof types.DocsDeferredDocument,
    "query DocsPage($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber status right { description } } }": typeof types.DocsPageDocument,
    "query DocsOne($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status right { description } } }": typeof types.DocsOneDocument,
    "\n  fragment ChargeFields on Charge {\n    status\n    productType\n    details\n    fee\n    fas\n    transactionNumber\n    reference\n  }\n": typeof types.ChargeFieldsFragmentDoc,
    "\n  query Title($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      titleType\n      searchSheet\n      titleSheetUpdatedTo\n      right { type description addresses { name number street town postcode uprn } }\n      proprietorships { considerationEntries { dateOfEntry dateOfRegistration consideration } }\n      plans { type paperSize description lastUpdated }\n      applications { applicationNumber applicationDate type { code prettyPrint } }\n    }\n  }\n": typeof types.TitleDocument,
    "\n  query TitleWithSecurities($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      securities { id applicationType specification dateOfRegistration source }\n    }\n  }\n": typeof types.TitleWithSecuritiesDocument,
    "\n  query Titles($titleNumbers: [TitleNumber!]!) {\n    titles(titleNumbers: $titleNumbers) {\n      titleNumber\n      status\n      securities { id }\n    }\n  }\n": typeof types.TitlesDocument,
    "\n  query Creditors($query: String!) {\n    creditors(query: $query) { designation creditorCode }\n  }\n": typeof types.CreditorsDocument,
    "\n  query ReferenceListPaths {\n    referenceListPaths\n  }\n": typeof types.ReferenceListPathsDocument,
    "\n  query ReferenceList($path: String!, $includeInactive: Boolean) {\n    referenceList(path: $path) {\n      path\n      name\n      description\n      items(includeInactive: $includeInactive) { label value description active metadata }\n    }\n  }\n": typeof types.ReferenceListDocument,
    "\n  mutation PurchaseTitleDetails($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details {\n        titleNumber\n        status\n        right {\n          cadastralUnit\n          hectarageCode\n          addresses { street town }\n          boundaryNotes { planType notes }\n          notes { entryNo text }\n          schedules { type entries { entryNo subEntries { realBurdens benefittedProperty burdenedProperty } } }\n        }\n        proprietorships { entryNumber description details { proprietors { name { first last company } prettyPrint } } considerationEntries { consideration } }\n        securities { entryNumber specification creditor dateOfRegistration notes debtors { prettyPrint } }\n        burdens { partNumber entries { entryNumber preamble text dateOfRecording } }\n        sharingPlots { titleNumber share }\n        sharedPlots { titleNumber share }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": typeof types.PurchaseTitleDetailsDocument,
    "\n  mutation PurchasePendingApplications($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchasePendingApplications(fas: $fas, input: $input) {\n      pendingApplications {\n        results\n        items { applicationNumber titleNumber applicationDate type { code prettyPrint } status { code prettyPrint } consideration subjects { street town } deeds { type { code prettyPrint } } granters { name { last } } applicants { name { last } } validFrom validTo }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": typeof types.PurchasePendingApplicationsDocument,
    "\n  mutation OrderTitleDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {\n    orderTitleDocument(fas: $fas, input: $input) {\n      document { documentId titleNumber expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": typeof types.OrderTitleDocumentDocument,
    "\n  mutation PurchaseTitlePlans($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitlePlans(fas: $fas, input: $input) {\n      plans { planId type paperSize description lastUpdated expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": typeof types.PurchaseTitlePlansDocument,
    "\n  mutation CreateCase($fas: FasNumber!, $input: CreateCaseInput!) {\n    createCase(fas: $fas, input: $input) {\n      case { id reference titleNumbers }\n      userErrors { code message field }\n    }\n  }\n": typeof types.CreateCaseDocument,
    "\n  mutation AddDeedToCase($input: AddDeedToCaseInput!) {\n    addDeedToCase(input: $input) {\n      deed { id caseId deedType }\n      userErrors { code message field }\n    }\n  }\n": typeof types.AddDeedToCaseDocument,
    "\n  query RegisterUsage {\n    registerUsage { day calls blockedUntil }\n  }\n": typeof types.RegisterUsageDocument,
    "\n  query ChargeRecords($day: Date!) {\n    chargeRecords(day: $day) {\n      status\n      operation\n      idempotencyKey\n      fas\n      titleNumber\n      charge { ...ChargeFields }\n      recordedAt\n    }\n  }\n": typeof types.ChargeRecordsDocument,
    "\n  mutation BuyTitle($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details { titleNumber }\n      charges { fee transactionNumber reference }\n      userErrors { code message field }\n    }\n  }\n": typeof types.BuyTitleDocument,
    "\n  query ChargeQuote($fas: FasNumber!, $titleNumber: TitleNumber!, $products: [ChargeableProduct!]!) {\n    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: $products) {\n      lines { product listFee alreadyChargedToday expectedFee }\n      expectedTotal\n      withinLimits\n    }\n  }\n": typeof types.ChargeQuoteDocument,
    "\n  query Spending {\n    spending {\n      day\n      client { charged pending limit remaining }\n      organisation { charged pending limit remaining }\n    }\n  }\n": typeof types.SpendingDocument,
    "\n  query ChargeStatement($from: Date!, $to: Date!, $reference: String) {\n    chargeStatement(from: $from, to: $to, reference: $reference) {\n      from\n      to\n      records { status operation idempotencyKey titleNumber apiClient reference charge { fee transactionNumber } }\n      total\n      unknownCount\n    }\n  }\n": typeof types.ChargeStatementDocument,
    "\n  query Node($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Title { titleNumber status }\n    }\n  }\n": typeof types.NodeDocument,
    "\n  query TitleId($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) { id titleNumber }\n  }\n": typeof types.TitleIdDocument,
    "\n  query Viewer {\n    viewer { kind caller callerName apiClient organisation scopes }\n  }\n": typeof types.ViewerDocument,
    "\n  query CallerSpending {\n    spending {\n      caller { charged pending limit remaining }\n      client { charged pending limit remaining }\n    }\n  }\n": typeof types.CallerSpendingDocument,
    "\n  query StatementPage($from: Date!, $to: Date!, $caller: String, $first: Int, $after: String) {\n    chargeStatement(from: $from, to: $to, caller: $caller, first: $first, after: $after) {\n      records { titleNumber caller callerName apiClient status }\n      nextCursor\n      total\n      unknownCount\n    }\n  }\n": typeof types.StatementPageDocument,
    "\n  query CallerRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerName apiClient }\n  }\n": typeof types.CallerRecordsDocument,
    "\n  query Principal {\n    viewer { id kind provider subject callerName }\n  }\n": typeof types.PrincipalDocument,
    "\n  query PrincipalRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerId }\n  }\n": typeof types.PrincipalRecordsDocument,
};
const documents: Documents = {
    "query DocsStatus($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }": types.DocsStatusDocument,
    "query DocsType($t: TitleNumber!) { title(titleNumber: $t) { titleNumber titleType } }": types.DocsTypeDocument,
    "mutation DocsOrder($input: OrderTitleDocumentInput!) { orderTitleDocument(fas: \"5555\", input: $input) { document { titleNumber downloadUrl } } }": types.DocsOrderDocument,
    "query DocsUrql($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }": types.DocsUrqlDocument,
    "query DocsDeferred($t: TitleNumber!) { title(titleNumber: $t) { titleNumber ... @defer { plans { description } } } }": types.DocsDeferredDocument,
    "query DocsPage($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber status right { description } } }": types.DocsPageDocument,
    "query DocsOne($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status right { description } } }": types.DocsOneDocument,
    "\n  fragment ChargeFields on Charge {\n    status\n    productType\n    details\n    fee\n    fas\n    transactionNumber\n    reference\n  }\n": types.ChargeFieldsFragmentDoc,
    "\n  query Title($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      titleType\n      searchSheet\n      titleSheetUpdatedTo\n      right { type description addresses { name number street town postcode uprn } }\n      proprietorships { considerationEntries { dateOfEntry dateOfRegistration consideration } }\n      plans { type paperSize description lastUpdated }\n      applications { applicationNumber applicationDate type { code prettyPrint } }\n    }\n  }\n": types.TitleDocument,
    "\n  query TitleWithSecurities($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      securities { id applicationType specification dateOfRegistration source }\n    }\n  }\n": types.TitleWithSecuritiesDocument,
    "\n  query Titles($titleNumbers: [TitleNumber!]!) {\n    titles(titleNumbers: $titleNumbers) {\n      titleNumber\n      status\n      securities { id }\n    }\n  }\n": types.TitlesDocument,
    "\n  query Creditors($query: String!) {\n    creditors(query: $query) { designation creditorCode }\n  }\n": types.CreditorsDocument,
    "\n  query ReferenceListPaths {\n    referenceListPaths\n  }\n": types.ReferenceListPathsDocument,
    "\n  query ReferenceList($path: String!, $includeInactive: Boolean) {\n    referenceList(path: $path) {\n      path\n      name\n      description\n      items(includeInactive: $includeInactive) { label value description active metadata }\n    }\n  }\n": types.ReferenceListDocument,
    "\n  mutation PurchaseTitleDetails($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details {\n        titleNumber\n        status\n        right {\n          cadastralUnit\n          hectarageCode\n          addresses { street town }\n          boundaryNotes { planType notes }\n          notes { entryNo text }\n          schedules { type entries { entryNo subEntries { realBurdens benefittedProperty burdenedProperty } } }\n        }\n        proprietorships { entryNumber description details { proprietors { name { first last company } prettyPrint } } considerationEntries { consideration } }\n        securities { entryNumber specification creditor dateOfRegistration notes debtors { prettyPrint } }\n        burdens { partNumber entries { entryNumber preamble text dateOfRecording } }\n        sharingPlots { titleNumber share }\n        sharedPlots { titleNumber share }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": types.PurchaseTitleDetailsDocument,
    "\n  mutation PurchasePendingApplications($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchasePendingApplications(fas: $fas, input: $input) {\n      pendingApplications {\n        results\n        items { applicationNumber titleNumber applicationDate type { code prettyPrint } status { code prettyPrint } consideration subjects { street town } deeds { type { code prettyPrint } } granters { name { last } } applicants { name { last } } validFrom validTo }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": types.PurchasePendingApplicationsDocument,
    "\n  mutation OrderTitleDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {\n    orderTitleDocument(fas: $fas, input: $input) {\n      document { documentId titleNumber expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": types.OrderTitleDocumentDocument,
    "\n  mutation PurchaseTitlePlans($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitlePlans(fas: $fas, input: $input) {\n      plans { planId type paperSize description lastUpdated expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n": types.PurchaseTitlePlansDocument,
    "\n  mutation CreateCase($fas: FasNumber!, $input: CreateCaseInput!) {\n    createCase(fas: $fas, input: $input) {\n      case { id reference titleNumbers }\n      userErrors { code message field }\n    }\n  }\n": types.CreateCaseDocument,
    "\n  mutation AddDeedToCase($input: AddDeedToCaseInput!) {\n    addDeedToCase(input: $input) {\n      deed { id caseId deedType }\n      userErrors { code message field }\n    }\n  }\n": types.AddDeedToCaseDocument,
    "\n  query RegisterUsage {\n    registerUsage { day calls blockedUntil }\n  }\n": types.RegisterUsageDocument,
    "\n  query ChargeRecords($day: Date!) {\n    chargeRecords(day: $day) {\n      status\n      operation\n      idempotencyKey\n      fas\n      titleNumber\n      charge { ...ChargeFields }\n      recordedAt\n    }\n  }\n": types.ChargeRecordsDocument,
    "\n  mutation BuyTitle($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details { titleNumber }\n      charges { fee transactionNumber reference }\n      userErrors { code message field }\n    }\n  }\n": types.BuyTitleDocument,
    "\n  query ChargeQuote($fas: FasNumber!, $titleNumber: TitleNumber!, $products: [ChargeableProduct!]!) {\n    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: $products) {\n      lines { product listFee alreadyChargedToday expectedFee }\n      expectedTotal\n      withinLimits\n    }\n  }\n": types.ChargeQuoteDocument,
    "\n  query Spending {\n    spending {\n      day\n      client { charged pending limit remaining }\n      organisation { charged pending limit remaining }\n    }\n  }\n": types.SpendingDocument,
    "\n  query ChargeStatement($from: Date!, $to: Date!, $reference: String) {\n    chargeStatement(from: $from, to: $to, reference: $reference) {\n      from\n      to\n      records { status operation idempotencyKey titleNumber apiClient reference charge { fee transactionNumber } }\n      total\n      unknownCount\n    }\n  }\n": types.ChargeStatementDocument,
    "\n  query Node($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Title { titleNumber status }\n    }\n  }\n": types.NodeDocument,
    "\n  query TitleId($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) { id titleNumber }\n  }\n": types.TitleIdDocument,
    "\n  query Viewer {\n    viewer { kind caller callerName apiClient organisation scopes }\n  }\n": types.ViewerDocument,
    "\n  query CallerSpending {\n    spending {\n      caller { charged pending limit remaining }\n      client { charged pending limit remaining }\n    }\n  }\n": types.CallerSpendingDocument,
    "\n  query StatementPage($from: Date!, $to: Date!, $caller: String, $first: Int, $after: String) {\n    chargeStatement(from: $from, to: $to, caller: $caller, first: $first, after: $after) {\n      records { titleNumber caller callerName apiClient status }\n      nextCursor\n      total\n      unknownCount\n    }\n  }\n": types.StatementPageDocument,
    "\n  query CallerRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerName apiClient }\n  }\n": types.CallerRecordsDocument,
    "\n  query Principal {\n    viewer { id kind provider subject callerName }\n  }\n": types.PrincipalDocument,
    "\n  query PrincipalRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerId }\n  }\n": types.PrincipalRecordsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DocsStatus($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }"): (typeof documents)["query DocsStatus($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DocsType($t: TitleNumber!) { title(titleNumber: $t) { titleNumber titleType } }"): (typeof documents)["query DocsType($t: TitleNumber!) { title(titleNumber: $t) { titleNumber titleType } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DocsOrder($input: OrderTitleDocumentInput!) { orderTitleDocument(fas: \"5555\", input: $input) { document { titleNumber downloadUrl } } }"): (typeof documents)["mutation DocsOrder($input: OrderTitleDocumentInput!) { orderTitleDocument(fas: \"5555\", input: $input) { document { titleNumber downloadUrl } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DocsUrql($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }"): (typeof documents)["query DocsUrql($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DocsDeferred($t: TitleNumber!) { title(titleNumber: $t) { titleNumber ... @defer { plans { description } } } }"): (typeof documents)["query DocsDeferred($t: TitleNumber!) { title(titleNumber: $t) { titleNumber ... @defer { plans { description } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DocsPage($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber status right { description } } }"): (typeof documents)["query DocsPage($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber status right { description } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query DocsOne($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status right { description } } }"): (typeof documents)["query DocsOne($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status right { description } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChargeFields on Charge {\n    status\n    productType\n    details\n    fee\n    fas\n    transactionNumber\n    reference\n  }\n"): (typeof documents)["\n  fragment ChargeFields on Charge {\n    status\n    productType\n    details\n    fee\n    fas\n    transactionNumber\n    reference\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Title($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      titleType\n      searchSheet\n      titleSheetUpdatedTo\n      right { type description addresses { name number street town postcode uprn } }\n      proprietorships { considerationEntries { dateOfEntry dateOfRegistration consideration } }\n      plans { type paperSize description lastUpdated }\n      applications { applicationNumber applicationDate type { code prettyPrint } }\n    }\n  }\n"): (typeof documents)["\n  query Title($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      titleType\n      searchSheet\n      titleSheetUpdatedTo\n      right { type description addresses { name number street town postcode uprn } }\n      proprietorships { considerationEntries { dateOfEntry dateOfRegistration consideration } }\n      plans { type paperSize description lastUpdated }\n      applications { applicationNumber applicationDate type { code prettyPrint } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TitleWithSecurities($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      securities { id applicationType specification dateOfRegistration source }\n    }\n  }\n"): (typeof documents)["\n  query TitleWithSecurities($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      securities { id applicationType specification dateOfRegistration source }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Titles($titleNumbers: [TitleNumber!]!) {\n    titles(titleNumbers: $titleNumbers) {\n      titleNumber\n      status\n      securities { id }\n    }\n  }\n"): (typeof documents)["\n  query Titles($titleNumbers: [TitleNumber!]!) {\n    titles(titleNumbers: $titleNumbers) {\n      titleNumber\n      status\n      securities { id }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Creditors($query: String!) {\n    creditors(query: $query) { designation creditorCode }\n  }\n"): (typeof documents)["\n  query Creditors($query: String!) {\n    creditors(query: $query) { designation creditorCode }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReferenceListPaths {\n    referenceListPaths\n  }\n"): (typeof documents)["\n  query ReferenceListPaths {\n    referenceListPaths\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReferenceList($path: String!, $includeInactive: Boolean) {\n    referenceList(path: $path) {\n      path\n      name\n      description\n      items(includeInactive: $includeInactive) { label value description active metadata }\n    }\n  }\n"): (typeof documents)["\n  query ReferenceList($path: String!, $includeInactive: Boolean) {\n    referenceList(path: $path) {\n      path\n      name\n      description\n      items(includeInactive: $includeInactive) { label value description active metadata }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PurchaseTitleDetails($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details {\n        titleNumber\n        status\n        right {\n          cadastralUnit\n          hectarageCode\n          addresses { street town }\n          boundaryNotes { planType notes }\n          notes { entryNo text }\n          schedules { type entries { entryNo subEntries { realBurdens benefittedProperty burdenedProperty } } }\n        }\n        proprietorships { entryNumber description details { proprietors { name { first last company } prettyPrint } } considerationEntries { consideration } }\n        securities { entryNumber specification creditor dateOfRegistration notes debtors { prettyPrint } }\n        burdens { partNumber entries { entryNumber preamble text dateOfRecording } }\n        sharingPlots { titleNumber share }\n        sharedPlots { titleNumber share }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"): (typeof documents)["\n  mutation PurchaseTitleDetails($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details {\n        titleNumber\n        status\n        right {\n          cadastralUnit\n          hectarageCode\n          addresses { street town }\n          boundaryNotes { planType notes }\n          notes { entryNo text }\n          schedules { type entries { entryNo subEntries { realBurdens benefittedProperty burdenedProperty } } }\n        }\n        proprietorships { entryNumber description details { proprietors { name { first last company } prettyPrint } } considerationEntries { consideration } }\n        securities { entryNumber specification creditor dateOfRegistration notes debtors { prettyPrint } }\n        burdens { partNumber entries { entryNumber preamble text dateOfRecording } }\n        sharingPlots { titleNumber share }\n        sharedPlots { titleNumber share }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PurchasePendingApplications($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchasePendingApplications(fas: $fas, input: $input) {\n      pendingApplications {\n        results\n        items { applicationNumber titleNumber applicationDate type { code prettyPrint } status { code prettyPrint } consideration subjects { street town } deeds { type { code prettyPrint } } granters { name { last } } applicants { name { last } } validFrom validTo }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"): (typeof documents)["\n  mutation PurchasePendingApplications($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchasePendingApplications(fas: $fas, input: $input) {\n      pendingApplications {\n        results\n        items { applicationNumber titleNumber applicationDate type { code prettyPrint } status { code prettyPrint } consideration subjects { street town } deeds { type { code prettyPrint } } granters { name { last } } applicants { name { last } } validFrom validTo }\n      }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OrderTitleDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {\n    orderTitleDocument(fas: $fas, input: $input) {\n      document { documentId titleNumber expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"): (typeof documents)["\n  mutation OrderTitleDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {\n    orderTitleDocument(fas: $fas, input: $input) {\n      document { documentId titleNumber expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PurchaseTitlePlans($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitlePlans(fas: $fas, input: $input) {\n      plans { planId type paperSize description lastUpdated expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"): (typeof documents)["\n  mutation PurchaseTitlePlans($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitlePlans(fas: $fas, input: $input) {\n      plans { planId type paperSize description lastUpdated expiresAt downloadUrl }\n      charges { ...ChargeFields }\n      userErrors { code message field }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCase($fas: FasNumber!, $input: CreateCaseInput!) {\n    createCase(fas: $fas, input: $input) {\n      case { id reference titleNumbers }\n      userErrors { code message field }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateCase($fas: FasNumber!, $input: CreateCaseInput!) {\n    createCase(fas: $fas, input: $input) {\n      case { id reference titleNumbers }\n      userErrors { code message field }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddDeedToCase($input: AddDeedToCaseInput!) {\n    addDeedToCase(input: $input) {\n      deed { id caseId deedType }\n      userErrors { code message field }\n    }\n  }\n"): (typeof documents)["\n  mutation AddDeedToCase($input: AddDeedToCaseInput!) {\n    addDeedToCase(input: $input) {\n      deed { id caseId deedType }\n      userErrors { code message field }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RegisterUsage {\n    registerUsage { day calls blockedUntil }\n  }\n"): (typeof documents)["\n  query RegisterUsage {\n    registerUsage { day calls blockedUntil }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChargeRecords($day: Date!) {\n    chargeRecords(day: $day) {\n      status\n      operation\n      idempotencyKey\n      fas\n      titleNumber\n      charge { ...ChargeFields }\n      recordedAt\n    }\n  }\n"): (typeof documents)["\n  query ChargeRecords($day: Date!) {\n    chargeRecords(day: $day) {\n      status\n      operation\n      idempotencyKey\n      fas\n      titleNumber\n      charge { ...ChargeFields }\n      recordedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BuyTitle($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details { titleNumber }\n      charges { fee transactionNumber reference }\n      userErrors { code message field }\n    }\n  }\n"): (typeof documents)["\n  mutation BuyTitle($fas: FasNumber!, $input: PurchaseTitleInput!) {\n    purchaseTitleDetails(fas: $fas, input: $input) {\n      details { titleNumber }\n      charges { fee transactionNumber reference }\n      userErrors { code message field }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChargeQuote($fas: FasNumber!, $titleNumber: TitleNumber!, $products: [ChargeableProduct!]!) {\n    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: $products) {\n      lines { product listFee alreadyChargedToday expectedFee }\n      expectedTotal\n      withinLimits\n    }\n  }\n"): (typeof documents)["\n  query ChargeQuote($fas: FasNumber!, $titleNumber: TitleNumber!, $products: [ChargeableProduct!]!) {\n    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: $products) {\n      lines { product listFee alreadyChargedToday expectedFee }\n      expectedTotal\n      withinLimits\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Spending {\n    spending {\n      day\n      client { charged pending limit remaining }\n      organisation { charged pending limit remaining }\n    }\n  }\n"): (typeof documents)["\n  query Spending {\n    spending {\n      day\n      client { charged pending limit remaining }\n      organisation { charged pending limit remaining }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChargeStatement($from: Date!, $to: Date!, $reference: String) {\n    chargeStatement(from: $from, to: $to, reference: $reference) {\n      from\n      to\n      records { status operation idempotencyKey titleNumber apiClient reference charge { fee transactionNumber } }\n      total\n      unknownCount\n    }\n  }\n"): (typeof documents)["\n  query ChargeStatement($from: Date!, $to: Date!, $reference: String) {\n    chargeStatement(from: $from, to: $to, reference: $reference) {\n      from\n      to\n      records { status operation idempotencyKey titleNumber apiClient reference charge { fee transactionNumber } }\n      total\n      unknownCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Node($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Title { titleNumber status }\n    }\n  }\n"): (typeof documents)["\n  query Node($id: ID!) {\n    node(id: $id) {\n      id\n      ... on Title { titleNumber status }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TitleId($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) { id titleNumber }\n  }\n"): (typeof documents)["\n  query TitleId($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) { id titleNumber }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer { kind caller callerName apiClient organisation scopes }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer { kind caller callerName apiClient organisation scopes }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CallerSpending {\n    spending {\n      caller { charged pending limit remaining }\n      client { charged pending limit remaining }\n    }\n  }\n"): (typeof documents)["\n  query CallerSpending {\n    spending {\n      caller { charged pending limit remaining }\n      client { charged pending limit remaining }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StatementPage($from: Date!, $to: Date!, $caller: String, $first: Int, $after: String) {\n    chargeStatement(from: $from, to: $to, caller: $caller, first: $first, after: $after) {\n      records { titleNumber caller callerName apiClient status }\n      nextCursor\n      total\n      unknownCount\n    }\n  }\n"): (typeof documents)["\n  query StatementPage($from: Date!, $to: Date!, $caller: String, $first: Int, $after: String) {\n    chargeStatement(from: $from, to: $to, caller: $caller, first: $first, after: $after) {\n      records { titleNumber caller callerName apiClient status }\n      nextCursor\n      total\n      unknownCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CallerRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerName apiClient }\n  }\n"): (typeof documents)["\n  query CallerRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerName apiClient }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Principal {\n    viewer { id kind provider subject callerName }\n  }\n"): (typeof documents)["\n  query Principal {\n    viewer { id kind provider subject callerName }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PrincipalRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerId }\n  }\n"): (typeof documents)["\n  query PrincipalRecords($day: Date!) {\n    chargeRecords(day: $day) { titleNumber caller callerId }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;