/** The stores' settings: a leaf without imports, so that reading the settings loads no database driver. */

/**
 * DATABASE_MAX_CONNECTIONS: the most connections one replica opens to PostgreSQL, its three
 * stores together (the idempotency store and charge journal, the quota ledger, the persisted
 * queries). Replicas × this must stay under the server's max_connections, less what others use.
 */
export const DEFAULT_DATABASE_MAX_CONNECTIONS = 24;
