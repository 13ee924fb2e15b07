/**
 * A caller's principal: how it proved who it is, who vouched for it, and its subject there.
 * OIDC makes `sub` unique only within its issuer, and an API key's name is chosen by the operator:
 * a bare name can be two callers at once (a key `ann`, and a person `ann` at each of two
 * providers). Everything attributed to a caller rests on the principal's id instead, one string
 * nobody else can have:
 *
 * - `key:<name>` an API key of the tenants file;
 * - `router:<name>` a federation router's key;
 * - `person:<provider>:<sub>` a person signed in at the identity provider the tenants file names so.
 *
 * Key and provider names hold no `:` (config/tenants-file.ts refuses one), so the first two colons
 * of an id are its separators and a subject may hold any character but a control character.
 */

/** How the caller proved who it is. */
export type CallerKind = 'PERSON' | 'API_KEY' | 'ROUTER';

export interface Principal {
  kind: CallerKind;
  /** The tenants file's name for who vouches for the caller: the identity provider's name, or `keys` for its API keys. */
  provider: string;
  /** A person's `sub` at that provider; a key's name. */
  subject: string;
}

/** The provider of every API key (and router key): the tenants file's list of keys. */
export const KEYS_PROVIDER = 'keys';

const PREFIX: Record<CallerKind, string> = { API_KEY: 'key', ROUTER: 'router', PERSON: 'person' };

/** The principal's id: `key:<name>`, `router:<name>` or `person:<provider>:<sub>`. */
export function principalId({ kind, provider, subject }: Principal): string {
  return kind === 'PERSON' ? `person:${provider}:${subject}` : `${PREFIX[kind]}:${subject}`;
}

/** The principal an id names, or undefined when it is not one (a bare name, say). */
export function parsePrincipalId(id: string): Principal | undefined {
  const first = id.indexOf(':');
  if (first <= 0) return undefined;
  const prefix = id.slice(0, first);
  const rest = id.slice(first + 1);
  if (prefix === 'key' || prefix === 'router') {
    return rest && !rest.includes(':')
      ? { kind: prefix === 'key' ? 'API_KEY' : 'ROUTER', provider: KEYS_PROVIDER, subject: rest }
      : undefined;
  }
  if (prefix !== 'person') return undefined;
  const second = rest.indexOf(':');
  if (second <= 0 || second === rest.length - 1) return undefined;
  return { kind: 'PERSON', provider: rest.slice(0, second), subject: rest.slice(second + 1) };
}
