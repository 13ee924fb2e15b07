/**
 * What a caller may do: the one list of scopes. The schema declares each field's scope with
 * `@requiresScopes` (so routers enforce the same rules), the service enforces them from those
 * directives, and the README's table is checked against this list.
 */
export const SCOPES = {
  'titles:read': 'titles, securities, creditors, reference lists, quotes and `node`',
  'titles:buy': 'the chargeable mutations (purchases and orders)',
  'cases:write': 'createCase and addDeedToCase',
  'charges:read': "the caller's own journal, statements and spending, and /statements.csv",
  'charges:organisation': "the whole organisation's statements (an accounts key)",
} as const satisfies Record<string, string>;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

/** What an API key without `scopes` in the tenants file may do: everything but the organisation's statements. */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = ALL_SCOPES.filter((scope) => scope !== 'charges:organisation');

/** An API key's scopes: those the tenants file lists, or the defaults; `accounts: true` adds `charges:organisation`. */
export function keyScopes(listed: readonly Scope[] | undefined, accounts: boolean | undefined): ReadonlySet<Scope> {
  const scopes = new Set<Scope>(listed ?? DEFAULT_KEY_SCOPES);
  if (accounts) scopes.add('charges:organisation');
  return scopes;
}
