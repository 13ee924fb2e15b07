/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The deed to add: one of the three deed types, over the whole of the case's single registered or draft title. */
export type AddDeedToCaseInput = {
  /** Applicants (e.g. buyers of a disposition); none for a discharge. */
  applicants?: Array<DeedPartyInput> | null | undefined;
  /** A case of the caller's organisation. */
  caseId: string;
  /** Standard security only: the creditor applicant, by creditor code from `creditors`. */
  creditorApplicant?: CreditorApplicantInput | null | undefined;
  /** Kind of deed. */
  deedType: DeedType;
  /** Granters (e.g. sellers of a disposition). */
  granters?: Array<DeedPartyInput> | null | undefined;
  /** Client-chosen key: the same key and input never create twice. */
  idempotencyKey: string;
  /** Discharges over registered titles only: at most 25, each 1 to 50 characters. */
  mortgageNumbers?: Array<string> | null | undefined;
  /** Who is notified: at most 4 addresses, each at most 255 characters. */
  notificationEmails?: Array<string> | null | undefined;
  /** Discharges over registered titles only: the Security.id to discharge (1 to 20 characters). */
  securityId?: string | null | undefined;
  /** Only REGISTERED_WHOLE. */
  subjectExtent: SubjectExtent;
};

/** How the caller proved who it is. */
export type CallerKind =
  /** An API key from the tenants file. */
  | 'API_KEY'
  /** A person signed in at the organisation's identity provider (an OAuth 2.0 JWT access token). */
  | 'PERSON'
  /** A federation router's key: reads the schema only. */
  | 'ROUTER';

/** Whether the register reported the charge, the call is still at the register, or it may have charged without an answer. */
export type ChargeRecordStatus =
  /** The register reported this charge. */
  | 'CHARGED'
  /** The call may have reached the register and no answer came back: it may or may not have charged. Check the invoice; it is never re-sent. */
  | 'OUTCOME_UNKNOWN'
  /** The call is at the register; its outcome is not known yet (the charge is null). It counts as spent until it settles where it is, in a statement too, as CHARGED or OUTCOME_UNKNOWN, or goes when nothing was charged. */
  | 'PENDING';

/** What the register charges for: once per product, title, charging account and register day. */
export type ChargeableProduct =
  /** Advance notices and pending applications of a title. */
  | 'PENDING_APPLICATIONS'
  /** Title data, the title sheet PDF and all plans of a title: one charge. */
  | 'TITLE_DATA_AND_PLANS';

/** A new case: reference, agent contact details and its title. */
export type CreateCaseInput = {
  /** The agent's contact e-mail, ISO-8859-1. */
  contactEmail: string;
  /** The agent's contact telephone, ISO-8859-1. */
  contactTelephone: string;
  /** Client-chosen key: the same key and input never create twice. */
  idempotencyKey: string;
  /** At most 50 characters, ISO-8859-1. */
  reference: string;
  /** Exactly one registered title at present. */
  titleNumbers: Array<string>;
};

/** The creditor of a standard security, by its creditor code. */
export type CreditorApplicantInput = {
  /** Creditor code from the `creditors` query, e.g. SANT4. */
  creditorCode: string;
};

/** Address of a deed party (ISO-8859-1 strings). */
export type DeedPartyAddressInput = {
  /** Country. */
  country?: string | null | undefined;
  /** Building name. */
  name?: string | null | undefined;
  /** Street number. */
  number?: number | null | undefined;
  /** Postcode. */
  postcode?: string | null | undefined;
  /** Street. */
  street?: string | null | undefined;
  /** Town or city. */
  town?: string | null | undefined;
};

/** A granter or applicant (a person or an organisation); ISO-8859-1 strings. */
export type DeedPartyInput = {
  /** Address. */
  address?: DeedPartyAddressInput | null | undefined;
  /** Forenames. */
  firstName?: string | null | undefined;
  /** Surname. */
  lastName?: string | null | undefined;
  /** Organisation name. */
  organisationName?: string | null | undefined;
  /** Organisation (company) number. */
  organisationNumber?: string | null | undefined;
  /** Title, e.g. Mrs. */
  prefix?: string | null | undefined;
  /** Party type, e.g. NATURAL. */
  type: string;
};

/** The deed types a case accepts through the API. */
export type DeedType =
  /** Discharge of a standard security (register deed type 1). */
  | 'DISCHARGE_OF_STANDARD_SECURITY'
  /** Disposition (register deed type 11). */
  | 'DISPOSITION'
  /** Standard security (register deed type 20). */
  | 'STANDARD_SECURITY';

/** A further part of a document. */
export type DocumentPartInput = {
  /** Include this part. */
  include: boolean;
};

/** The title, the parts wanted (at least one), the invoice reference and the idempotency key. */
export type OrderTitleDocumentInput = {
  /** The pending applications part (charged separately). */
  applications?: DocumentPartInput | null | undefined;
  /** Client-chosen key: the same key and input never charge twice. */
  idempotencyKey: string;
  /** The most this call may charge, before VAT; as in PurchaseTitleInput. */
  maxFee?: string | null | undefined;
  /** Caller's search reference, at most 75 characters. */
  reference?: string | null | undefined;
  /** The title. */
  titleNumber: string;
  /** The title sheet part. */
  titleSheet?: TitleSheetPartInput | null | undefined;
};

/** How burden preambles are printed in the title sheet. */
export type Preambles =
  /** Preambles printed inline with each burden. */
  | 'INLINE';

/** Which title to buy, the search reference for the invoice, and the idempotency key. */
export type PurchaseTitleInput = {
  /** Client-chosen key (1 to 255 printable ASCII): the same key with the same input never charges twice. */
  idempotencyKey: string;
  /**
   * The most this call may charge, before VAT (e.g. "3.00"). When the expected charge is
   * higher, the call is refused with CHARGE_ABOVE_MAXIMUM before anything is sent.
   */
  maxFee?: string | null | undefined;
  /** Caller's search reference, at most 75 characters; appears on invoices and charges. */
  reference?: string | null | undefined;
  /** The title to buy. */
  titleNumber: string;
};

/** How much of the case title the deed covers. */
export type SubjectExtent =
  /** The whole of a single registered or draft title. */
  | 'REGISTERED_WHOLE';

/** The title sheet part of a document (charged as title data and plans). */
export type TitleSheetPartInput = {
  /** Include the title sheet. */
  include: boolean;
  /** How preambles are printed. */
  preambles?: Preambles | null | undefined;
};

/** Status of a title in the register. */
export type TitleStatus =
  /** A title absorbed into another: reduced summary only. */
  | 'ABSORBED'
  /** A title amalgamated into another: reduced summary only. */
  | 'AMALGAMATED'
  /** A cancelled title: reduced summary only. */
  | 'CANCELLED'
  /** A closed title: reduced summary only. */
  | 'CLOSED'
  /** A draft title: reduced summary, pending applications, no securities. */
  | 'DRAFT'
  /** A registered title: full information available. */
  | 'REGISTERED';

/** Why a mutation did not do what was asked. */
export type UserErrorCode =
  /** Unknown, private, or another organisation's case. */
  | 'CASE_NOT_FOUND'
  /** The expected charge is above the caller's maxFee; nothing was sent. */
  | 'CHARGE_ABOVE_MAXIMUM'
  /** The charging account is at its credit limit; nothing was charged. */
  | 'CREDIT_LIMIT_EXCEEDED'
  /** A deed rule that depends on the register's state was broken, e.g. a discharge of a security the title does not have; `field` names the input. */
  | 'DEED_RULE_VIOLATION'
  /** A replay of an order whose document or plans expired with their day (midnight, London time): the charges are those of the original order. Order again with a new idempotency key. */
  | 'DOCUMENT_EXPIRED'
  /** Not a charging account of the caller's organisation, or the wrong kind of account. */
  | 'FAS_NOT_AUTHORISED'
  /** A request with this idempotency key is still in progress; retry shortly. */
  | 'IDEMPOTENCY_KEY_IN_USE'
  /** This idempotency key was used before with different input. */
  | 'IDEMPOTENCY_KEY_REUSED'
  /** A limit or character-set rule of the spec was broken; `field` names the input. */
  | 'INVALID_INPUT'
  /** The request reached the register but no answer came back, so it may have been charged or created. It is never re-sent automatically: check before retrying with a new key. */
  | 'OUTCOME_UNKNOWN'
  /** The register's quota or rate limit was reached; retry after the time given. */
  | 'RATE_LIMITED'
  /** The security to discharge is not registered against the case title. */
  | 'SECURITY_NOT_FOUND'
  /** The API client's or organisation's spending limit for the day leaves no room for this call; nothing was sent. The message says which limit, what remains and when it resets. */
  | 'SPEND_LIMIT_REACHED'
  /** The register has no such title. */
  | 'TITLE_NOT_FOUND'
  /** The operation does not apply to a title of this status, e.g. details of a closed title. */
  | 'TITLE_STATUS_NOT_SUPPORTED';

export type DocsStatusQueryVariables = Exact<{
  t: string;
}>;


export type DocsStatusQuery = { title: { titleNumber: string, status: TitleStatus } | null };

export type DocsTypeQueryVariables = Exact<{
  t: string;
}>;


export type DocsTypeQuery = { title: { titleNumber: string, titleType: string | null } | null };

export type DocsOrderMutationVariables = Exact<{
  input: OrderTitleDocumentInput;
}>;


export type DocsOrderMutation = { orderTitleDocument: { document: { titleNumber: string, downloadUrl: string } | null } };

export type DocsUrqlQueryVariables = Exact<{
  t: string;
}>;


export type DocsUrqlQuery = { title: { titleNumber: string, status: TitleStatus } | null };

export type DocsDeferredQueryVariables = Exact<{
  t: string;
}>;


export type DocsDeferredQuery = { title: { titleNumber: string } & ({ plans: Array<{ description: string | null }> } | { plans?: never }) | null };

export type DocsPageQueryVariables = Exact<{
  n: Array<string> | string;
}>;


export type DocsPageQuery = { titles: Array<{ titleNumber: string, status: TitleStatus, right: { description: string | null } | null } | null> };

export type DocsOneQueryVariables = Exact<{
  t: string;
}>;


export type DocsOneQuery = { title: { titleNumber: string, status: TitleStatus, right: { description: string | null } | null } | null };

export type ChargeFieldsFragment = { status: string, productType: string | null, details: string | null, fee: string, fas: string, transactionNumber: string | null, reference: string | null };

export type TitleQueryVariables = Exact<{
  titleNumber: string;
}>;


export type TitleQuery = { title: { titleNumber: string, status: TitleStatus, titleType: string | null, searchSheet: string | null, titleSheetUpdatedTo: string | null, right: { type: string | null, description: string | null, addresses: Array<{ name: string | null, number: number | null, street: string | null, town: string | null, postcode: string | null, uprn: string | null }> } | null, proprietorships: Array<{ considerationEntries: Array<{ dateOfEntry: string | null, dateOfRegistration: string | null, consideration: string | null }> }>, plans: Array<{ type: string | null, paperSize: number | null, description: string | null, lastUpdated: string | null }>, applications: Array<{ applicationNumber: string, applicationDate: string | null, type: { code: string, prettyPrint: string | null } | null }> } | null };

export type TitleWithSecuritiesQueryVariables = Exact<{
  titleNumber: string;
}>;


export type TitleWithSecuritiesQuery = { title: { titleNumber: string, status: TitleStatus, securities: Array<{ id: string, applicationType: string | null, specification: string | null, dateOfRegistration: string | null, source: string | null }> | null } | null };

export type TitlesQueryVariables = Exact<{
  titleNumbers: Array<string> | string;
}>;


export type TitlesQuery = { titles: Array<{ titleNumber: string, status: TitleStatus, securities: Array<{ id: string }> | null } | null> };

export type CreditorsQueryVariables = Exact<{
  query: string;
}>;


export type CreditorsQuery = { creditors: Array<{ designation: string, creditorCode: string }> };

export type ReferenceListPathsQueryVariables = Exact<{ [key: string]: never; }>;


export type ReferenceListPathsQuery = { referenceListPaths: Array<string> };

export type ReferenceListQueryVariables = Exact<{
  path: string;
  includeInactive?: boolean | null | undefined;
}>;


export type ReferenceListQuery = { referenceList: { path: string, name: string, description: string, items: Array<{ label: string, value: string | number, description: string | null, active: boolean, metadata: Record<string, unknown> | null }> } | null };

export type PurchaseTitleDetailsMutationVariables = Exact<{
  fas: string;
  input: PurchaseTitleInput;
}>;


export type PurchaseTitleDetailsMutation = { purchaseTitleDetails: { details: { titleNumber: string, status: TitleStatus, right: { cadastralUnit: string | null, hectarageCode: number | null, addresses: Array<{ street: string | null, town: string | null }>, boundaryNotes: { planType: string | null, notes: Array<string> } | null, notes: Array<{ entryNo: number, text: string }>, schedules: Array<{ type: string | null, entries: Array<{ entryNo: number, subEntries: Array<{ realBurdens: string | null, benefittedProperty: string | null, burdenedProperty: string | null }> }> }> } | null, proprietorships: Array<{ entryNumber: number, description: string | null, details: Array<{ proprietors: Array<{ prettyPrint: string | null, name: { first: string | null, last: string | null, company: string | null } | null }> }>, considerationEntries: Array<{ consideration: string | null }> }>, securities: Array<{ entryNumber: number, specification: string | null, creditor: string | null, dateOfRegistration: string | null, notes: Array<string>, debtors: Array<{ prettyPrint: string | null }> }>, burdens: Array<{ partNumber: number, entries: Array<{ entryNumber: number, preamble: string | null, text: string | null, dateOfRecording: string | null }> }>, sharingPlots: Array<{ titleNumber: string, share: string | null }>, sharedPlots: Array<{ titleNumber: string, share: string | null }> } | null, charges: Array<{ status: string, productType: string | null, details: string | null, fee: string, fas: string, transactionNumber: string | null, reference: string | null }>, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type PurchasePendingApplicationsMutationVariables = Exact<{
  fas: string;
  input: PurchaseTitleInput;
}>;


export type PurchasePendingApplicationsMutation = { purchasePendingApplications: { pendingApplications: { results: number, items: Array<{ applicationNumber: string, titleNumber: string | null, applicationDate: string | null, consideration: string | null, validFrom: string | null, validTo: string | null, type: { code: string, prettyPrint: string | null } | null, status: { code: string, prettyPrint: string | null } | null, subjects: Array<{ street: string | null, town: string | null }>, deeds: Array<{ type: { code: number | null, prettyPrint: string | null } | null }>, granters: Array<{ name: { last: string | null } | null }>, applicants: Array<{ name: { last: string | null } | null }> }> } | null, charges: Array<{ status: string, productType: string | null, details: string | null, fee: string, fas: string, transactionNumber: string | null, reference: string | null }>, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type OrderTitleDocumentMutationVariables = Exact<{
  fas: string;
  input: OrderTitleDocumentInput;
}>;


export type OrderTitleDocumentMutation = { orderTitleDocument: { document: { documentId: string, titleNumber: string, expiresAt: string, downloadUrl: string } | null, charges: Array<{ status: string, productType: string | null, details: string | null, fee: string, fas: string, transactionNumber: string | null, reference: string | null }>, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type PurchaseTitlePlansMutationVariables = Exact<{
  fas: string;
  input: PurchaseTitleInput;
}>;


export type PurchaseTitlePlansMutation = { purchaseTitlePlans: { plans: Array<{ planId: string, type: string | null, paperSize: number | null, description: string | null, lastUpdated: string | null, expiresAt: string, downloadUrl: string }>, charges: Array<{ status: string, productType: string | null, details: string | null, fee: string, fas: string, transactionNumber: string | null, reference: string | null }>, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type CreateCaseMutationVariables = Exact<{
  fas: string;
  input: CreateCaseInput;
}>;


export type CreateCaseMutation = { createCase: { case: { id: string, reference: string, titleNumbers: Array<string> } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type AddDeedToCaseMutationVariables = Exact<{
  input: AddDeedToCaseInput;
}>;


export type AddDeedToCaseMutation = { addDeedToCase: { deed: { id: string, caseId: string, deedType: DeedType } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type RegisterUsageQueryVariables = Exact<{ [key: string]: never; }>;


export type RegisterUsageQuery = { registerUsage: { day: string, calls: number, blockedUntil: string | null } };

export type ChargeRecordsQueryVariables = Exact<{
  day: string;
}>;


export type ChargeRecordsQuery = { chargeRecords: Array<{ status: ChargeRecordStatus, operation: string, idempotencyKey: string, fas: string, titleNumber: string, recordedAt: string, charge: { status: string, productType: string | null, details: string | null, fee: string, fas: string, transactionNumber: string | null, reference: string | null } | null }> };

export type BuyTitleMutationVariables = Exact<{
  fas: string;
  input: PurchaseTitleInput;
}>;


export type BuyTitleMutation = { purchaseTitleDetails: { details: { titleNumber: string } | null, charges: Array<{ fee: string, transactionNumber: string | null, reference: string | null }>, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type ChargeQuoteQueryVariables = Exact<{
  fas: string;
  titleNumber: string;
  products: Array<ChargeableProduct> | ChargeableProduct;
}>;


export type ChargeQuoteQuery = { chargeQuote: { expectedTotal: string, withinLimits: boolean, lines: Array<{ product: ChargeableProduct, listFee: string, alreadyChargedToday: boolean, expectedFee: string }> } };

export type SpendingQueryVariables = Exact<{ [key: string]: never; }>;


export type SpendingQuery = { spending: { day: string, client: { charged: string, pending: string, limit: string | null, remaining: string | null }, organisation: { charged: string, pending: string, limit: string | null, remaining: string | null } } };

export type ChargeStatementQueryVariables = Exact<{
  from: string;
  to: string;
  reference?: string | null | undefined;
}>;


export type ChargeStatementQuery = { chargeStatement: { from: string, to: string, total: string, unknownCount: number, records: Array<{ status: ChargeRecordStatus, operation: string, idempotencyKey: string, titleNumber: string, apiClient: string, reference: string | null, charge: { fee: string, transactionNumber: string | null } | null }> } };

export type NodeQueryVariables = Exact<{
  id: string | number;
}>;


export type NodeQuery = { node: { titleNumber: string, status: TitleStatus, id: string } | null };

export type TitleIdQueryVariables = Exact<{
  titleNumber: string;
}>;


export type TitleIdQuery = { title: { id: string, titleNumber: string } | null };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { kind: CallerKind, caller: string, callerName: string | null, apiClient: string | null, organisation: string | null, scopes: Array<string> } };

export type CallerSpendingQueryVariables = Exact<{ [key: string]: never; }>;


export type CallerSpendingQuery = { spending: { caller: { charged: string, pending: string, limit: string | null, remaining: string | null }, client: { charged: string, pending: string, limit: string | null, remaining: string | null } } };

export type StatementPageQueryVariables = Exact<{
  from: string;
  to: string;
  caller?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type StatementPageQuery = { chargeStatement: { nextCursor: string | null, total: string, unknownCount: number, records: Array<{ titleNumber: string, caller: string, callerName: string | null, apiClient: string, status: ChargeRecordStatus }> } };

export type CallerRecordsQueryVariables = Exact<{
  day: string;
}>;


export type CallerRecordsQuery = { chargeRecords: Array<{ titleNumber: string, caller: string, callerName: string | null, apiClient: string }> };

export type PrincipalQueryVariables = Exact<{ [key: string]: never; }>;


export type PrincipalQuery = { viewer: { id: string, kind: CallerKind, provider: string, subject: string, callerName: string | null } };

export type PrincipalRecordsQueryVariables = Exact<{
  day: string;
}>;


export type PrincipalRecordsQuery = { chargeRecords: Array<{ titleNumber: string, caller: string, callerId: string | null }> };

export const ChargeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChargeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Charge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"productType"}},{"kind":"Field","name":{"kind":"Name","value":"details"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"fas"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<ChargeFieldsFragment, unknown>;
export const DocsStatusDocument = {"__meta__":{"hash":"sha256:d0ef7671034d1379e3df17dafd85395881c3d11549bacdd88c304fd440c40c9e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DocsStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"t"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"t"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<DocsStatusQuery, DocsStatusQueryVariables>;
export const DocsTypeDocument = {"__meta__":{"hash":"sha256:00f2f7b221ea42035eccc8d38954510189512512a50f9c9a38d386676e29b2c9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DocsType"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"t"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"t"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"titleType"}}]}}]}}]} as unknown as DocumentNode<DocsTypeQuery, DocsTypeQueryVariables>;
export const DocsOrderDocument = {"__meta__":{"hash":"sha256:9237807ca754342ee3831fe0304b9b9e88a7bfeafba6bef4e4fbce629622440c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DocsOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrderTitleDocumentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderTitleDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"StringValue","value":"5555","block":false}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"downloadUrl"}}]}}]}}]}}]} as unknown as DocumentNode<DocsOrderMutation, DocsOrderMutationVariables>;
export const DocsUrqlDocument = {"__meta__":{"hash":"sha256:a1538c213a0ed573c9fe54a8ab64fb204ce31a0ec9a622ff8f6409c95fbc1ecf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DocsUrql"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"t"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"t"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<DocsUrqlQuery, DocsUrqlQueryVariables>;
export const DocsDeferredDocument = {"__meta__":{"hash":"sha256:4fcf3fd748e734b2a397f5dd85f466ccb511e2395508699321aa559b7921ef09"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DocsDeferred"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"t"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"t"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"InlineFragment","directives":[{"kind":"Directive","name":{"kind":"Name","value":"defer"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"plans"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]}}]} as unknown as DocumentNode<DocsDeferredQuery, DocsDeferredQueryVariables>;
export const DocsPageDocument = {"__meta__":{"hash":"sha256:b02abbf4cd001122b28bb5763de8268546880da14c3f7257d8f01e4d1202b587"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DocsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"n"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titles"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumbers"},"value":{"kind":"Variable","name":{"kind":"Name","value":"n"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"right"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]} as unknown as DocumentNode<DocsPageQuery, DocsPageQueryVariables>;
export const DocsOneDocument = {"__meta__":{"hash":"sha256:b6bba2d5c16354ef8e1f362762d002fd67abd48d8cbd31292bace1399f6240e6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DocsOne"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"t"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"t"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"right"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"description"}}]}}]}}]}}]} as unknown as DocumentNode<DocsOneQuery, DocsOneQueryVariables>;
export const TitleDocument = {"__meta__":{"hash":"sha256:a8794302a29675985043cde7dd8c3913170d08b4611de307d37896b351e79dd2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Title"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"titleType"}},{"kind":"Field","name":{"kind":"Name","value":"searchSheet"}},{"kind":"Field","name":{"kind":"Name","value":"titleSheetUpdatedTo"}},{"kind":"Field","name":{"kind":"Name","value":"right"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"addresses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"street"}},{"kind":"Field","name":{"kind":"Name","value":"town"}},{"kind":"Field","name":{"kind":"Name","value":"postcode"}},{"kind":"Field","name":{"kind":"Name","value":"uprn"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"proprietorships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"considerationEntries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dateOfEntry"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfRegistration"}},{"kind":"Field","name":{"kind":"Name","value":"consideration"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"plans"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"paperSize"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"lastUpdated"}}]}},{"kind":"Field","name":{"kind":"Name","value":"applications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"applicationNumber"}},{"kind":"Field","name":{"kind":"Name","value":"applicationDate"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"prettyPrint"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TitleQuery, TitleQueryVariables>;
export const TitleWithSecuritiesDocument = {"__meta__":{"hash":"sha256:d806b6c76ce36e5bf773b0d93c429e23e5a35418bc729b0a573f74b2283b24d6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TitleWithSecurities"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"securities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"applicationType"}},{"kind":"Field","name":{"kind":"Name","value":"specification"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfRegistration"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]}}]}}]} as unknown as DocumentNode<TitleWithSecuritiesQuery, TitleWithSecuritiesQueryVariables>;
export const TitlesDocument = {"__meta__":{"hash":"sha256:55a2220c3ddd3c3ffead97565654faff2f6212a951092c00a3bf4087b599df6a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Titles"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"titleNumbers"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titles"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumbers"},"value":{"kind":"Variable","name":{"kind":"Name","value":"titleNumbers"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"securities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<TitlesQuery, TitlesQueryVariables>;
export const CreditorsDocument = {"__meta__":{"hash":"sha256:62fab165e9cf908cdc1539283c7d69576ea3cea50adaf7ce7e84fa2d3aaccf02"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Creditors"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"creditors"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"designation"}},{"kind":"Field","name":{"kind":"Name","value":"creditorCode"}}]}}]}}]} as unknown as DocumentNode<CreditorsQuery, CreditorsQueryVariables>;
export const ReferenceListPathsDocument = {"__meta__":{"hash":"sha256:b58c8a0d95f4351bc321bf8c7510fcba6d56738ef9a6ed9f6cba90b9ab80ef28"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReferenceListPaths"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"referenceListPaths"}}]}}]} as unknown as DocumentNode<ReferenceListPathsQuery, ReferenceListPathsQueryVariables>;
export const ReferenceListDocument = {"__meta__":{"hash":"sha256:0881f028636637f8efc248779ce1e07047c28b0f1c42e0e4526b186a3fcdb14c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReferenceList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"path"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeInactive"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"referenceList"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"path"},"value":{"kind":"Variable","name":{"kind":"Name","value":"path"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"includeInactive"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeInactive"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}}]}}]} as unknown as DocumentNode<ReferenceListQuery, ReferenceListQueryVariables>;
export const PurchaseTitleDetailsDocument = {"__meta__":{"hash":"sha256:d0e748f4b25bce449e3ba29404938f4e6f0968e9d3c89d17eaec8eabe5f39bdd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PurchaseTitleDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fas"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FasNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PurchaseTitleInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purchaseTitleDetails"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fas"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"details"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"right"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cadastralUnit"}},{"kind":"Field","name":{"kind":"Name","value":"hectarageCode"}},{"kind":"Field","name":{"kind":"Name","value":"addresses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"street"}},{"kind":"Field","name":{"kind":"Name","value":"town"}}]}},{"kind":"Field","name":{"kind":"Name","value":"boundaryNotes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"planType"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"notes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryNo"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"schedules"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryNo"}},{"kind":"Field","name":{"kind":"Name","value":"subEntries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"realBurdens"}},{"kind":"Field","name":{"kind":"Name","value":"benefittedProperty"}},{"kind":"Field","name":{"kind":"Name","value":"burdenedProperty"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"proprietorships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryNumber"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"details"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"proprietors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"first"}},{"kind":"Field","name":{"kind":"Name","value":"last"}},{"kind":"Field","name":{"kind":"Name","value":"company"}}]}},{"kind":"Field","name":{"kind":"Name","value":"prettyPrint"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"considerationEntries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"consideration"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"securities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryNumber"}},{"kind":"Field","name":{"kind":"Name","value":"specification"}},{"kind":"Field","name":{"kind":"Name","value":"creditor"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfRegistration"}},{"kind":"Field","name":{"kind":"Name","value":"notes"}},{"kind":"Field","name":{"kind":"Name","value":"debtors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prettyPrint"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"burdens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"partNumber"}},{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryNumber"}},{"kind":"Field","name":{"kind":"Name","value":"preamble"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfRecording"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"sharingPlots"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"share"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sharedPlots"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"share"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChargeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChargeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Charge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"productType"}},{"kind":"Field","name":{"kind":"Name","value":"details"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"fas"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<PurchaseTitleDetailsMutation, PurchaseTitleDetailsMutationVariables>;
export const PurchasePendingApplicationsDocument = {"__meta__":{"hash":"sha256:cc98edc9edada788022faf12048c7d906218cadc340389f2536289778817923e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PurchasePendingApplications"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fas"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FasNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PurchaseTitleInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purchasePendingApplications"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fas"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pendingApplications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"results"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"applicationNumber"}},{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"applicationDate"}},{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"prettyPrint"}}]}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"prettyPrint"}}]}},{"kind":"Field","name":{"kind":"Name","value":"consideration"}},{"kind":"Field","name":{"kind":"Name","value":"subjects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"street"}},{"kind":"Field","name":{"kind":"Name","value":"town"}}]}},{"kind":"Field","name":{"kind":"Name","value":"deeds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"prettyPrint"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"granters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"last"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"applicants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"last"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"validFrom"}},{"kind":"Field","name":{"kind":"Name","value":"validTo"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChargeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChargeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Charge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"productType"}},{"kind":"Field","name":{"kind":"Name","value":"details"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"fas"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<PurchasePendingApplicationsMutation, PurchasePendingApplicationsMutationVariables>;
export const OrderTitleDocumentDocument = {"__meta__":{"hash":"sha256:fdfda484f213058bd2e80bbb216151b0e0692a4eb52afa6bb6ea04e11f6b1a57"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OrderTitleDocument"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fas"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FasNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrderTitleDocumentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderTitleDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fas"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"documentId"}},{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"downloadUrl"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChargeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChargeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Charge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"productType"}},{"kind":"Field","name":{"kind":"Name","value":"details"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"fas"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<OrderTitleDocumentMutation, OrderTitleDocumentMutationVariables>;
export const PurchaseTitlePlansDocument = {"__meta__":{"hash":"sha256:2f27737712e6811e45fc194a4d672e98a26174d48b269d7fedd6d46085d7ffa0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PurchaseTitlePlans"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fas"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FasNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PurchaseTitleInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purchaseTitlePlans"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fas"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"plans"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"planId"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"paperSize"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"lastUpdated"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"downloadUrl"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChargeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChargeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Charge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"productType"}},{"kind":"Field","name":{"kind":"Name","value":"details"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"fas"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<PurchaseTitlePlansMutation, PurchaseTitlePlansMutationVariables>;
export const CreateCaseDocument = {"__meta__":{"hash":"sha256:82a9619904d2a65d217e5277707a8f05d155cc8607119c296cfa941b72d52233"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateCase"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fas"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FasNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateCaseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createCase"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fas"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"case"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"titleNumbers"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}}]} as unknown as DocumentNode<CreateCaseMutation, CreateCaseMutationVariables>;
export const AddDeedToCaseDocument = {"__meta__":{"hash":"sha256:115595fe4c17a43acc76102db11452d902dd33f4f109453f38b1a5271a859576"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddDeedToCase"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AddDeedToCaseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addDeedToCase"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"caseId"}},{"kind":"Field","name":{"kind":"Name","value":"deedType"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}}]} as unknown as DocumentNode<AddDeedToCaseMutation, AddDeedToCaseMutationVariables>;
export const RegisterUsageDocument = {"__meta__":{"hash":"sha256:067ff4a3e0798a9ad57abc1221a0aa6a43671c324b013906af5826827454813a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RegisterUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"registerUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"calls"}},{"kind":"Field","name":{"kind":"Name","value":"blockedUntil"}}]}}]}}]} as unknown as DocumentNode<RegisterUsageQuery, RegisterUsageQueryVariables>;
export const ChargeRecordsDocument = {"__meta__":{"hash":"sha256:2220dbf198e5ab6f99ff184a668138247881dd3bbc503a164cf98de1f5ab2d6f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChargeRecords"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"day"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargeRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"day"},"value":{"kind":"Variable","name":{"kind":"Name","value":"day"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"idempotencyKey"}},{"kind":"Field","name":{"kind":"Name","value":"fas"}},{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"charge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ChargeFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"recordedAt"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ChargeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Charge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"productType"}},{"kind":"Field","name":{"kind":"Name","value":"details"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"fas"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<ChargeRecordsQuery, ChargeRecordsQueryVariables>;
export const BuyTitleDocument = {"__meta__":{"hash":"sha256:9b05843a96bb6fc053fa176ded9598b1494065c3f38aa0cd262b2770dac912d1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"BuyTitle"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fas"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FasNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PurchaseTitleInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purchaseTitleDetails"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fas"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"details"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}}]} as unknown as DocumentNode<BuyTitleMutation, BuyTitleMutationVariables>;
export const ChargeQuoteDocument = {"__meta__":{"hash":"sha256:14f4c2b8635ce9dbdf5c50f1834babccfa79d7384eea7afde5941d4fcac59672"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChargeQuote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"fas"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FasNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"products"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ChargeableProduct"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargeQuote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"fas"},"value":{"kind":"Variable","name":{"kind":"Name","value":"fas"}}},{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}}},{"kind":"Argument","name":{"kind":"Name","value":"products"},"value":{"kind":"Variable","name":{"kind":"Name","value":"products"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lines"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"product"}},{"kind":"Field","name":{"kind":"Name","value":"listFee"}},{"kind":"Field","name":{"kind":"Name","value":"alreadyChargedToday"}},{"kind":"Field","name":{"kind":"Name","value":"expectedFee"}}]}},{"kind":"Field","name":{"kind":"Name","value":"expectedTotal"}},{"kind":"Field","name":{"kind":"Name","value":"withinLimits"}}]}}]}}]} as unknown as DocumentNode<ChargeQuoteQuery, ChargeQuoteQueryVariables>;
export const SpendingDocument = {"__meta__":{"hash":"sha256:b0ac10e23d70a292e4484ee0d22c3fe666052534ca44bd99a0b3fc39787a0d4d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Spending"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"spending"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"client"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"charged"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}}]}},{"kind":"Field","name":{"kind":"Name","value":"organisation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"charged"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}}]}}]}}]}}]} as unknown as DocumentNode<SpendingQuery, SpendingQueryVariables>;
export const ChargeStatementDocument = {"__meta__":{"hash":"sha256:379df62c13771df495525a2b0569de01ab9c8cbcf27c4eaa005a55ee8fcdec7a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChargeStatement"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reference"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargeStatement"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"reference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"records"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"idempotencyKey"}},{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"apiClient"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"charge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"transactionNumber"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"unknownCount"}}]}}]}}]} as unknown as DocumentNode<ChargeStatementQuery, ChargeStatementQueryVariables>;
export const NodeDocument = {"__meta__":{"hash":"sha256:b93f4999c1ac43e726ecc8477c60f402978c80f874073c1a825257f63d6b041f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Node"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Title"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<NodeQuery, NodeQueryVariables>;
export const TitleIdDocument = {"__meta__":{"hash":"sha256:6914e89fd06f818005409148e301875b0e355ccf59d67fa2211cc6692db0208e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TitleId"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TitleNumber"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"titleNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"titleNumber"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}}]}}]}}]} as unknown as DocumentNode<TitleIdQuery, TitleIdQueryVariables>;
export const ViewerDocument = {"__meta__":{"hash":"sha256:31d4ec021011cdc32e1fa7da40c12ab6e28407d630bda9f04c81de0569a08f3c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"caller"}},{"kind":"Field","name":{"kind":"Name","value":"callerName"}},{"kind":"Field","name":{"kind":"Name","value":"apiClient"}},{"kind":"Field","name":{"kind":"Name","value":"organisation"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const CallerSpendingDocument = {"__meta__":{"hash":"sha256:b8c82918c00df813e1dd46bb332f5fe6d876eda351e0071272a27abf1be643b2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CallerSpending"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"spending"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"caller"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"charged"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}}]}},{"kind":"Field","name":{"kind":"Name","value":"client"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"charged"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}}]}}]}}]}}]} as unknown as DocumentNode<CallerSpendingQuery, CallerSpendingQueryVariables>;
export const StatementPageDocument = {"__meta__":{"hash":"sha256:a635ae513786d9d9970bf3f7a8a807ce327437a2f4be893b99dec5503d335145"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"StatementPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"caller"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargeStatement"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"caller"},"value":{"kind":"Variable","name":{"kind":"Name","value":"caller"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"records"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"caller"}},{"kind":"Field","name":{"kind":"Name","value":"callerName"}},{"kind":"Field","name":{"kind":"Name","value":"apiClient"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextCursor"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"unknownCount"}}]}}]}}]} as unknown as DocumentNode<StatementPageQuery, StatementPageQueryVariables>;
export const CallerRecordsDocument = {"__meta__":{"hash":"sha256:bfce7a82ad536ff0810bbcb0ad0c7067d2fe2c4df47303846473cec3839c6f99"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CallerRecords"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"day"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargeRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"day"},"value":{"kind":"Variable","name":{"kind":"Name","value":"day"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"caller"}},{"kind":"Field","name":{"kind":"Name","value":"callerName"}},{"kind":"Field","name":{"kind":"Name","value":"apiClient"}}]}}]}}]} as unknown as DocumentNode<CallerRecordsQuery, CallerRecordsQueryVariables>;
export const PrincipalDocument = {"__meta__":{"hash":"sha256:eb57d8bdb029cc2af54d4fa6c4f79127798c3a1992fef04ebb7e9ca0c37c9f4a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Principal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"subject"}},{"kind":"Field","name":{"kind":"Name","value":"callerName"}}]}}]}}]} as unknown as DocumentNode<PrincipalQuery, PrincipalQueryVariables>;
export const PrincipalRecordsDocument = {"__meta__":{"hash":"sha256:9e7d05fb581256c269035468648a70de8da303162a8fcd1a46662e2a1a3ba605"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PrincipalRecords"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"day"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Date"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargeRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"day"},"value":{"kind":"Variable","name":{"kind":"Name","value":"day"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"titleNumber"}},{"kind":"Field","name":{"kind":"Name","value":"caller"}},{"kind":"Field","name":{"kind":"Name","value":"callerId"}}]}}]}}]} as unknown as DocumentNode<PrincipalRecordsQuery, PrincipalRecordsQueryVariables>;