/** The register client's settings: a leaf without imports, so that reading the settings loads nothing of the client. */

/**
 * The longest one register call runs, from its first attempt to its answer's last byte
 * (REGISTER_CALL_DEADLINE_MS); see http.ts for what happens to a call that reaches it.
 */
export const DEFAULT_CALL_DEADLINE_MS = 30_000;
