/**
 * The HTTP edge's settings: their shapes and defaults, and the operation-id rules the persisted
 * operations file is checked by. A leaf without imports, so that reading the settings loads
 * nothing of the server.
 */

export interface HttpLimits {
  /** The whole request, headers and body, must arrive within this (ms). */
  requestTimeoutMs: number;
  /** The headers must arrive within this (ms); at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** An idle kept-alive connection is closed after this (ms). */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are refused at once. */
  maxConnections: number;
  /**
   * Open connections from one client address at most; more from it are closed at once, so one
   * client cannot hold every connection (behind a proxy every client has the proxy's address).
   */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_024,
  maxConnectionsPerAddress: 256,
};

/**
 * SHUTDOWN_DEADLINE_MS is at least the register call deadline plus this: time for a request's
 * work before its register call (credentials, admission) and after it (the journal, the answer).
 */
export const SHUTDOWN_MARGIN_MS = 5_000;

/** The register call deadline's default (30 s) plus SHUTDOWN_MARGIN_MS. */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 35_000;

/** How many runs on graphql-js's executor before a document is compiled (GRAPHQL_JIT_AFTER's default). */
export const DEFAULT_COMPILE_AFTER = 10;

export interface PersistedOperations {
  /** Normalised id (`sha256:<hex>`) → operation text. */
  store: ReadonlyMap<string, string>;
  /** Refuse anything that is not a listed operation. */
  only: boolean;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;
/** An operation id: `<hash function>:<digest>`. */
export const PREFIXED_OPERATION_ID = /^[a-z0-9]+:[0-9a-zA-Z_-]+$/;

/** `abc…` (bare 64-hex SHA-256, as APQ clients send it) and `sha256:abc…` name the same operation. */
export function normaliseOperationId(id: string): string {
  const trimmed = id.trim();
  return HEX_SHA256.test(trimmed.toLowerCase()) ? `sha256:${trimmed.toLowerCase()}` : trimmed;
}
