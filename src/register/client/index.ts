/** The register REST client: HTTP only, nothing of GraphQL. */
export { RegisterTransport, type RegisterTransportOptions, type RegisterCallEvent } from './http';
export {
  RegisterClient,
  type RegisterCredentials,
  type RegisterClientOptions,
  type RegisterDownload,
  type ReferenceListResult,
  type ListBodies,
  type CallOptions,
} from './client';
export { RegisterError, isRegisterError, CLIENT_ERROR_CODES } from './errors';
export { abandon } from './responses';
export type { BreakerState } from './circuit-breaker';
export type {
  ChargeQuery,
  TitleSummaryResponse,
  TitleDetailsResponse,
  PendingApplicationsResponse,
  OrderDocumentRequest,
  OrderDocumentResponse,
  PurchasePlansResponse,
  SecuritiesResponse,
  CreditorsResponse,
  CreateCaseRequest,
  CreateCaseResponse,
  AddDeedRequest,
  AddDeedResponse,
  ListView,
  BasicList,
  DetailedList,
  OrderedList,
} from '../contract/wire';
