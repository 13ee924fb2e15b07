/**
 * The register's wire format: zod schemas of every request and response body.
 * ONE contract: the emulator validates requests and builds responses with these, the REST
 * client parses every response with them, and the OpenAPI document is generated from them.
 * Field names follow service-spec sections 2.2–2.14 exactly.
 */
import { z } from 'zod';
import { CASE_ID_PATTERN, FAS_PATTERN, LATIN1_RULE, LATIN1_TEXT_PATTERN, LIMITS, LIST_PATH_PATTERN, TITLE_NUMBER_PATTERN } from './rules';

// ------------------------------------------------------------------ primitives
export const TitleNumber = z
  .string()
  .regex(TITLE_NUMBER_PATTERN, 'must be 3 uppercase letters then 1 to 8 digits')
  .meta({ id: 'TitleNumber' });
export const Fas = z.string().regex(FAS_PATTERN, 'must be 4 to 6 digits').meta({ id: 'Fas' });
export const CaseId = z.string().regex(CASE_ID_PATTERN, 'must be RLP, 2 digits and 8 uppercase letters');
/** ISO 8601 calendar date, YYYY-MM-DD. */
export const IsoDate = z.iso.date();
/** A string of the case, securities and creditor interface (spec 1). */
export const Latin1 = z.string().regex(LATIN1_TEXT_PATTERN, LATIN1_RULE);
export const Latin1Max = (max: number) => Latin1.max(max, `must be at most ${max} characters`);

export const TitleStatus = z.enum(['REGISTERED', 'DRAFT', 'CLOSED', 'CANCELLED', 'AMALGAMATED', 'ABSORBED']);
export type TitleStatus = z.infer<typeof TitleStatus>;

export const ErrorCode = z.enum([
  'INVALID_REQUEST',
  'INVALID_TITLE_NUMBER',
  'UNAUTHORISED',
  'CREDIT_LIMIT_EXCEEDED',
  'FAS_NOT_AUTHORISED',
  'TITLE_NOT_FOUND',
  'DOCUMENT_NOT_FOUND',
  'CASE_NOT_FOUND',
  'SECURITY_NOT_FOUND',
  'LIST_NOT_FOUND',
  'TITLE_STATUS_NOT_SUPPORTED',
  'DEED_RULE_VIOLATION',
  'TOO_MANY_REQUESTS',
  'INTERNAL_ERROR',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Every error body: `{code, message}`; `field` (dotted path) when one input field is at fault. */
export const ErrorBody = z.object({ code: z.string(), message: z.string(), field: z.string().optional() }).meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

// ------------------------------------------------------------------ auth
export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

// ------------------------------------------------------------------ shared shapes (2.2–2.4)
export const Address = z
  .object({
    subBuilding: z.string().optional(),
    name: z.string().optional(),
    number: z.number().int().optional(),
    street: z.string().optional(),
    locality: z.string().optional(),
    town: z.string().optional(),
    postcode: z.string().optional(),
    uprn: z.string().optional(),
    organisation: z.string().optional(),
    county: z.string().optional(),
    country: z.string().optional(),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof Address>;

export const Name = z
  .object({
    prefix: z.string().optional(),
    first: z.string().optional(),
    last: z.string().optional(),
    company: z.string().optional(),
  })
  .meta({ id: 'Name' });
export type Name = z.infer<typeof Name>;

export const CodeLabel = z.object({ code: z.string(), prettyPrint: z.string().optional() });

export const Charge = z
  .object({
    status: z.string(),
    productType: z.string(),
    details: z.string(),
    fee: z.string().regex(/^\d+\.\d{2}$/),
    fas: Fas,
    transactionNumber: z.string(),
    reference: z.string().optional(),
  })
  .meta({ id: 'Charge' });
export type Charge = z.infer<typeof Charge>;
export const Charges = z.array(Charge);

/** Query of every chargeable call (spec 4). */
export const ChargeQuery = z.object({
  fas: Fas,
  reference: z.string().max(LIMITS.chargeReference.max, `must be at most ${LIMITS.chargeReference.max} characters`).optional(),
});
export type ChargeQuery = z.infer<typeof ChargeQuery>;

// ------------------------------------------------------------------ 2.5 title summary
export const ConsiderationEntry = z.object({
  dateOfEntry: IsoDate.optional(),
  dateOfRegistration: IsoDate.optional(),
  consideration: z.string().optional(),
});
export const PlanSummary = z.object({
  type: z.string(),
  paperSize: z.number().int().optional(),
  description: z.string().optional(),
  lastUpdated: IsoDate.optional(),
});
export const ApplicationSummary = z.object({
  applicationNumber: z.string(),
  applicationDate: IsoDate.optional(),
  type: CodeLabel.optional(),
});

export const TitleSummary = z
  .object({
    titleNumber: TitleNumber,
    status: TitleStatus,
    titleType: z.string().optional(),
    searchSheet: z.string().optional(),
    date: z.object({ titleSheetUpdatedTo: IsoDate.optional() }).optional(),
    right: z.object({ type: z.string().optional(), description: z.string().optional(), addresses: z.array(Address).optional() }).optional(),
    proprietorships: z.array(z.object({ considerationEntries: z.array(ConsiderationEntry) })).optional(),
    plans: z.array(PlanSummary).optional(),
    applications: z.array(ApplicationSummary).optional(),
  })
  .meta({ id: 'TitleSummary' });
export type TitleSummary = z.infer<typeof TitleSummary>;
export const TitleSummaryResponse = z.object({ data: TitleSummary });
export type TitleSummaryResponse = z.infer<typeof TitleSummaryResponse>;

// ------------------------------------------------------------------ 2.6 title details
export const Proprietorship = z.object({
  entryNumber: z.number().int(),
  description: z.string().optional(),
  details: z.array(
    z.object({
      address: Address.optional(),
      proprietors: z.array(z.object({ name: Name.optional(), prettyPrint: z.string().optional() })),
    }),
  ),
  considerationEntries: z.array(ConsiderationEntry),
});
export const RegisteredSecurity = z.object({
  entryNumber: z.number().int(),
  specification: z.string().optional(),
  creditor: z.string().optional(),
  date: z.object({ registration: IsoDate.optional() }).optional(),
  notes: z.array(z.string()),
  debtors: z.array(z.object({ name: Name.optional(), prettyPrint: z.string().optional() })),
});
export const BurdenPart = z.object({
  partNumber: z.number().int(),
  description: z.string().optional(),
  titleNumber: TitleNumber.optional(),
  entries: z.array(
    z.object({
      entryNumber: z.number().int(),
      preamble: z.string().optional(),
      text: z.string().optional(),
      dateOfRecording: IsoDate.optional(),
    }),
  ),
});
export const PlotShare = z.object({ titleNumber: TitleNumber, share: z.string().optional() });

export const TitleDetails = z
  .object({
    titleNumber: TitleNumber,
    titleType: z.string().optional(),
    status: TitleStatus,
    searchSheet: z.string().optional(),
    date: z.object({ titleSheetUpdatedTo: IsoDate.optional() }).optional(),
    right: z.object({
      type: z.string().optional(),
      cadastralUnit: z.string().optional(),
      mapReference: z.string().optional(),
      sasineSearch: z.string().optional(),
      hectarageCode: z.number().int().optional(),
      description: z.string().optional(),
      addresses: z.array(Address),
      boundaryNotes: z.object({ planType: z.string().optional(), notes: z.array(z.object({ prettyPrint: z.string() })) }).optional(),
      notes: z.array(z.object({ entryNo: z.number().int(), text: z.string() })),
      schedules: z.array(
        z.object({
          type: z.string().optional(),
          description: z.string().optional(),
          entries: z.array(
            z.object({
              entryNo: z.number().int(),
              subEntries: z.array(
                z.object({
                  realBurdens: z.string().optional(),
                  benefittedProperty: z.string().optional(),
                  burdenedProperty: z.string().optional(),
                }),
              ),
            }),
          ),
        }),
      ),
    }),
    proprietorships: z.array(Proprietorship),
    securities: z.array(RegisteredSecurity),
    burdens: z.array(BurdenPart),
    sharingPlots: z.array(PlotShare),
    sharedPlots: z.array(PlotShare),
  })
  .meta({ id: 'TitleDetails' });
export type TitleDetails = z.infer<typeof TitleDetails>;
export const TitleDetailsResponse = z.object({ data: TitleDetails, charges: Charges });
export type TitleDetailsResponse = z.infer<typeof TitleDetailsResponse>;

// ------------------------------------------------------------------ 2.7 pending applications
const SubjectAddress = Address.pick({
  subBuilding: true,
  name: true,
  number: true,
  street: true,
  locality: true,
  town: true,
  postcode: true,
});
export const ApplicationParty = z.object({ name: Name.optional(), address: Address.optional() });
export const PendingApplication = z
  .object({
    applicationNumber: z.string(),
    titleNumber: TitleNumber.optional(),
    parentTitleNumber: TitleNumber.optional(),
    applicationDate: IsoDate.optional(),
    type: CodeLabel.optional(),
    status: CodeLabel.optional(),
    consideration: z.string().optional(),
    subjects: z.array(SubjectAddress),
    deeds: z.array(
      z.object({
        type: z.object({ code: z.number().int(), prettyPrint: z.string().optional() }).optional(),
        agentNumber: z.string().optional(),
        info: z.string().optional(),
      }),
    ),
    granters: z.array(ApplicationParty),
    applicants: z.array(ApplicationParty),
    validFrom: IsoDate.optional(),
    validTo: IsoDate.optional(),
  })
  .meta({ id: 'PendingApplication' });
export type PendingApplication = z.infer<typeof PendingApplication>;
export const PendingApplicationsResponse = z.object({
  list: z.object({ results: z.number().int().nonnegative(), items: z.array(PendingApplication) }),
  charges: Charges,
});
export type PendingApplicationsResponse = z.infer<typeof PendingApplicationsResponse>;

// ------------------------------------------------------------------ 4.4 / 4.6 documents and plans
export const OrderDocumentRequest = z
  .strictObject({
    titleSheet: z.strictObject({ include: z.boolean(), preambles: z.enum(['INLINE']).optional() }).optional(),
    applications: z.strictObject({ include: z.boolean() }).optional(),
  })
  .meta({ id: 'OrderDocumentRequest' });
export type OrderDocumentRequest = z.infer<typeof OrderDocumentRequest>;
export const OrderDocumentResponse = z.object({ data: z.object({ documentId: z.string().min(1) }), charges: Charges });
export type OrderDocumentResponse = z.infer<typeof OrderDocumentResponse>;

export const Plan = z
  .object({
    type: z.string(),
    paperSize: z.number().int().optional(),
    description: z.string().optional(),
    lastUpdated: IsoDate.optional(),
    planId: z.string().min(1),
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof Plan>;
export const PurchasePlansResponse = z.object({ plans: z.array(Plan), charges: Charges });
export type PurchasePlansResponse = z.infer<typeof PurchasePlansResponse>;

// ------------------------------------------------------------------ 2.10 securities, 2.11 creditors
export const TitleSecurity = z.object({
  id: z.string().min(1),
  applicationType: z.string().optional(),
  specification: z.string().optional(),
  dateOfRegistration: IsoDate.optional(),
  source: z.string().optional(),
});
export type TitleSecurity = z.infer<typeof TitleSecurity>;
export const SecuritiesResponse = z
  .object({
    titleNumber: TitleNumber,
    titleType: z.string().optional(),
    status: TitleStatus,
    securities: z.array(TitleSecurity),
  })
  .meta({ id: 'Securities' });
export type SecuritiesResponse = z.infer<typeof SecuritiesResponse>;

export const CreditorQuery = z.object({
  query: Latin1.min(LIMITS.creditorQuery.min, `must be at least ${LIMITS.creditorQuery.min} characters`).max(
    LIMITS.creditorQuery.max,
    `must be at most ${LIMITS.creditorQuery.max} characters`,
  ),
});
export const Creditor = z.object({ designation: z.string(), creditorCode: z.string() }).meta({ id: 'Creditor' });
export type Creditor = z.infer<typeof Creditor>;
export const CreditorsResponse = z.array(Creditor).max(LIMITS.creditorResults.max);
export type CreditorsResponse = z.infer<typeof CreditorsResponse>;

// ------------------------------------------------------------------ 4.10 cases
export const CreateCaseRequest = z
  .strictObject({
    reference: Latin1Max(LIMITS.caseReference.max),
    agent: z.strictObject({ fas: Fas, contactEmail: Latin1.min(1), contactTelephone: Latin1.min(1) }),
    subjects: z
      .array(z.strictObject({ type: z.literal('REGISTERED'), titleNumber: TitleNumber }))
      .length(1, 'must hold exactly one title at present'),
  })
  .meta({ id: 'CreateCaseRequest' });
export type CreateCaseRequest = z.infer<typeof CreateCaseRequest>;
export const CreateCaseResponse = z.object({ id: CaseId });
export type CreateCaseResponse = z.infer<typeof CreateCaseResponse>;

// ------------------------------------------------------------------ 4.11 deeds
export const DeedType = z.enum(['1', '11', '20']);
export type DeedType = z.infer<typeof DeedType>;

export const DeedParty = z
  .strictObject({
    type: Latin1.min(1),
    prefix: Latin1.optional(),
    firstName: Latin1.optional(),
    lastName: Latin1.optional(),
    organisationName: Latin1.optional(),
    organisationNumber: Latin1.optional(),
    address: z
      .strictObject({
        name: Latin1.optional(),
        number: z.number().int().optional(),
        street: Latin1.optional(),
        town: Latin1.optional(),
        postcode: Latin1.optional(),
        country: Latin1.optional(),
      })
      .optional(),
  })
  .meta({ id: 'DeedParty' });
export type DeedParty = z.infer<typeof DeedParty>;

/** The spec leaves CreditorApplicant's fields unshown; the project fixes it as a creditor code. */
export const CreditorApplicant = z
  .strictObject({ type: z.literal('CREDITOR'), creditorCode: Latin1.min(1).max(20) })
  .meta({ id: 'CreditorApplicant' });
export type CreditorApplicant = z.infer<typeof CreditorApplicant>;

export const AddDeedRequest = z
  .strictObject({
    deedType: DeedType,
    subjectExtent: z.literal('REGISTERED_WHOLE'),
    securityId: Latin1.min(LIMITS.securityId.min, 'must be at least 1 character')
      .max(LIMITS.securityId.max, `must be at most ${LIMITS.securityId.max} characters`)
      .optional(),
    mortgageNumbers: z
      .array(
        Latin1.min(LIMITS.mortgageNumbers.min, 'must be at least 1 character').max(
          LIMITS.mortgageNumbers.max,
          `must be at most ${LIMITS.mortgageNumbers.max} characters`,
        ),
      )
      .max(LIMITS.mortgageNumbers.maxItems, `must have at most ${LIMITS.mortgageNumbers.maxItems} items`)
      .optional(),
    notificationEmails: z
      .array(Latin1.max(LIMITS.notificationEmails.max, `must be at most ${LIMITS.notificationEmails.max} characters`))
      .max(LIMITS.notificationEmails.maxItems, `must have at most ${LIMITS.notificationEmails.maxItems} items`)
      .optional(),
    applicants: z.array(z.union([CreditorApplicant, DeedParty])).optional(),
    granters: z.array(DeedParty).optional(),
  })
  .meta({ id: 'AddDeedRequest' });
export type AddDeedRequest = z.infer<typeof AddDeedRequest>;
export const AddDeedResponse = z.object({ id: z.string().min(1) });
export type AddDeedResponse = z.infer<typeof AddDeedResponse>;

// ------------------------------------------------------------------ 2.14 reference lists
export const ListPath = z.string().regex(LIST_PATH_PATTERN);
export const ListPathsResponse = z.array(ListPath);
export const ReferenceValue = z.union([z.string(), z.number()]);
export const ListView = z.enum(['basic', 'detailed', 'ordered']);
export type ListView = z.infer<typeof ListView>;

export const BasicList = z.record(z.string(), ReferenceValue);
export type BasicList = z.infer<typeof BasicList>;
export const DetailedListItem = z.strictObject({
  label: z.string(),
  value: ReferenceValue,
  description: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  active: z.boolean().optional(),
});
export type DetailedListItem = z.infer<typeof DetailedListItem>;
export const DetailedList = z
  .object({
    metadata: z.looseObject({
      name: z.string(),
      description: z.string(),
      metadataSchema: z.record(z.string(), z.unknown()).optional(),
    }),
    items: z.array(DetailedListItem),
  })
  .meta({ id: 'DetailedList' });
export type DetailedList = z.infer<typeof DetailedList>;
export const OrderedList = z.array(z.strictObject({ label: z.string(), value: ReferenceValue }));
export type OrderedList = z.infer<typeof OrderedList>;
