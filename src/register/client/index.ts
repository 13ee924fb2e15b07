/** The register REST client: HTTP only, nothing of GraphQL. */
export {
  RegisterTransport,
  type RegisterTransportOptions,
  type RegisterCallEvent,
  type RegisterDay,
  type RegisterDayCertainty,
} from './http';
export {
  RegisterClient,
  type HeldCheck,
  type QuotaGate,
  type RegisterClientOptions,
  type RegisterDownload,
  type CallOptions,
} from './client';
export type { CallerSignal } from './cancellation';
export { CLIENT_ERROR_CODES, RegisterError } from './errors';
export { abandon, type Answered } from './responses';
