/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Whether the register reported the charge, the call is still at the register, or it may have charged without an answer. */
export type ChargeRecordStatus =
  /** The register reported this charge. */
  | 'CHARGED'
  /** The call may have reached the register and no answer came back: it may or may not have charged. Check the invoice; it is never re-sent. */
  | 'OUTCOME_UNKNOWN'
  /** The call is at the register; its outcome is not known yet (the charge is null). It counts as spent until it settles where it is, in a statement too, as CHARGED or OUTCOME_UNKNOWN, or goes when nothing was charged. */
  | 'PENDING';

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

export type TitleLookupQueryVariables = Exact<{
  titleNumber: string;
}>;


export type TitleLookupQuery = { title: { titleNumber: string, status: TitleStatus, right: { description: string | null, addresses: Array<{ street: string | null, town: string | null, postcode: string | null }> } | null, plans: Array<{ description: string | null, paperSize: number | null }> } | null };

export type OrderDocumentMutationVariables = Exact<{
  fas: string;
  input: OrderTitleDocumentInput;
}>;


export type OrderDocumentMutation = { orderTitleDocument: { document: { documentId: string, titleNumber: string, expiresAt: string, downloadUrl: string } | null, charges: Array<{ productType: string | null, fee: string }>, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type OrderQuoteQueryVariables = Exact<{
  fas: string;
  titleNumber: string;
}>;


export type OrderQuoteQuery = { chargeQuote: { expectedTotal: string, withinLimits: boolean, lines: Array<{ alreadyChargedToday: boolean }> } };

export type RegisterDayQueryVariables = Exact<{ [key: string]: never; }>;


export type RegisterDayQuery = { spending: { day: string } };

export type DayPurchasesQueryVariables = Exact<{
  day: string;
}>;


export type DayPurchasesQuery = { chargeRecords: Array<{ status: ChargeRecordStatus, operation: string, titleNumber: string, caller: string, callerName: string | null, charge: { fee: string } | null }> };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const TitleLookupDocument = new TypedDocumentString(`
    query TitleLookup($titleNumber: TitleNumber!) {
  title(titleNumber: $titleNumber) {
    titleNumber
    status
    right {
      description
      addresses {
        street
        town
        postcode
      }
    }
    plans {
      description
      paperSize
    }
  }
}
    `, {"hash":"sha256:bf282c64585801549eb289785cd31441e28b99ddbb0ea27557c4f71806ac817b"}) as unknown as TypedDocumentString<TitleLookupQuery, TitleLookupQueryVariables>;
export const OrderDocumentDocument = new TypedDocumentString(`
    mutation OrderDocument($fas: FasNumber!, $input: OrderTitleDocumentInput!) {
  orderTitleDocument(fas: $fas, input: $input) {
    document {
      documentId
      titleNumber
      expiresAt
      downloadUrl
    }
    charges {
      productType
      fee
    }
    userErrors {
      code
      message
      field
    }
  }
}
    `, {"hash":"sha256:560fc8970cb5b716143c5ac9489e5758572dd1072459668af2620b17a180aeb9"}) as unknown as TypedDocumentString<OrderDocumentMutation, OrderDocumentMutationVariables>;
export const OrderQuoteDocument = new TypedDocumentString(`
    query OrderQuote($fas: FasNumber!, $titleNumber: TitleNumber!) {
  chargeQuote(
    fas: $fas
    titleNumber: $titleNumber
    products: [TITLE_DATA_AND_PLANS]
  ) {
    lines {
      alreadyChargedToday
    }
    expectedTotal
    withinLimits
  }
}
    `, {"hash":"sha256:d6370cde973e36d1485db64b19eae0237b7e6d6b16868f229cd684fe91bb1f04"}) as unknown as TypedDocumentString<OrderQuoteQuery, OrderQuoteQueryVariables>;
export const RegisterDayDocument = new TypedDocumentString(`
    query RegisterDay {
  spending {
    day
  }
}
    `, {"hash":"sha256:1d2b205e0d2780cf24fd3fb58f589b215d03055f5b9998cb025d104c3808d947"}) as unknown as TypedDocumentString<RegisterDayQuery, RegisterDayQueryVariables>;
export const DayPurchasesDocument = new TypedDocumentString(`
    query DayPurchases($day: Date!) {
  chargeRecords(day: $day) {
    status
    operation
    titleNumber
    charge {
      fee
    }
    caller
    callerName
  }
}
    `, {"hash":"sha256:b846c52ac4370a835781099a81060afbe035db39026cb047682e436ea065408d"}) as unknown as TypedDocumentString<DayPurchasesQuery, DayPurchasesQueryVariables>;