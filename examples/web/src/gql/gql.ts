/* eslint-disable */
import * as types from './graphql';



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
    "\n  query TitleLookup($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      right { description addresses { street town postcode } }\n      plans { description paperSize }\n    }\n  }\n": typeof types.TitleLookupDocument,
    "\n  mutation OrderDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {\n    orderTitleDocument(fas: $fas, input: $input) {\n      document { documentId titleNumber expiresAt downloadUrl }\n      charges { productType fee }\n      userErrors { code message field }\n    }\n  }\n": typeof types.OrderDocumentDocument,
    "\n  query OrderQuote($fas: FasNumber!, $titleNumber: TitleNumber!) {\n    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: [TITLE_DATA_AND_PLANS]) {\n      lines { alreadyChargedToday }\n      expectedTotal\n      withinLimits\n    }\n  }\n": typeof types.OrderQuoteDocument,
    "\n  query RegisterDay {\n    spending { day }\n  }\n": typeof types.RegisterDayDocument,
    "\n  query DayPurchases($day: Date!) {\n    chargeRecords(day: $day) {\n      status\n      operation\n      titleNumber\n      charge { fee }\n      caller\n      callerName\n    }\n  }\n": typeof types.DayPurchasesDocument,
};
const documents: Documents = {
    "\n  query TitleLookup($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      right { description addresses { street town postcode } }\n      plans { description paperSize }\n    }\n  }\n": types.TitleLookupDocument,
    "\n  mutation OrderDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {\n    orderTitleDocument(fas: $fas, input: $input) {\n      document { documentId titleNumber expiresAt downloadUrl }\n      charges { productType fee }\n      userErrors { code message field }\n    }\n  }\n": types.OrderDocumentDocument,
    "\n  query OrderQuote($fas: FasNumber!, $titleNumber: TitleNumber!) {\n    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: [TITLE_DATA_AND_PLANS]) {\n      lines { alreadyChargedToday }\n      expectedTotal\n      withinLimits\n    }\n  }\n": types.OrderQuoteDocument,
    "\n  query RegisterDay {\n    spending { day }\n  }\n": types.RegisterDayDocument,
    "\n  query DayPurchases($day: Date!) {\n    chargeRecords(day: $day) {\n      status\n      operation\n      titleNumber\n      charge { fee }\n      caller\n      callerName\n    }\n  }\n": types.DayPurchasesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TitleLookup($titleNumber: TitleNumber!) {\n    title(titleNumber: $titleNumber) {\n      titleNumber\n      status\n      right { description addresses { street town postcode } }\n      plans { description paperSize }\n    }\n  }\n"): typeof import('./graphql').TitleLookupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OrderDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {\n    orderTitleDocument(fas: $fas, input: $input) {\n      document { documentId titleNumber expiresAt downloadUrl }\n      charges { productType fee }\n      userErrors { code message field }\n    }\n  }\n"): typeof import('./graphql').OrderDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrderQuote($fas: FasNumber!, $titleNumber: TitleNumber!) {\n    chargeQuote(fas: $fas, titleNumber: $titleNumber, products: [TITLE_DATA_AND_PLANS]) {\n      lines { alreadyChargedToday }\n      expectedTotal\n      withinLimits\n    }\n  }\n"): typeof import('./graphql').OrderQuoteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RegisterDay {\n    spending { day }\n  }\n"): typeof import('./graphql').RegisterDayDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DayPurchases($day: Date!) {\n    chargeRecords(day: $day) {\n      status\n      operation\n      titleNumber\n      charge { fee }\n      caller\n      callerName\n    }\n  }\n"): typeof import('./graphql').DayPurchasesDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
