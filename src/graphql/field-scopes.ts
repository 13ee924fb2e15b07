/**
 * What a field asks of its caller, published on it as the federation directives
 * `@authenticated` and `@requiresScopes(scopes: [["titles:buy"]])`: a router enforces the same
 * rules from the supergraph as the service does (security/scope-checks.ts reads these directives back
 * from the schema). One source, as `@cost` is for prices (register-calls.ts).
 */
import type { Scope } from '../services/scopes';

/** Field or type options: the caller needs `scope`. */
export const needsScope = (scope: Scope) => ({ requiresScopes: [[scope]] });

/** Field options: any caller with valid credentials (the service has no other kind: it refuses the rest at its edge). */
export const forAnyCaller = () => ({ authenticated: true });

/** What a field or type declares: scope sets any one of which suffices (`@requiresScopes`), and whether it needs a caller at all. */
export interface ScopeRequirement {
  authenticated: boolean;
  /** Each inner list is a set of scopes needed together; one whole set is enough. Empty: no scope needed. */
  anyOf: readonly (readonly string[])[];
}

/** Read from a field's or type's directives (Pothos keeps them in `extensions.directives`); undefined without either directive. */
export function requirementOf(element: { extensions?: { directives?: unknown } | null | undefined }): ScopeRequirement | undefined {
  const directives = element.extensions?.directives;
  if (!Array.isArray(directives)) return undefined;
  let found = false;
  let authenticated = false;
  const anyOf: string[][] = [];
  for (const directive of directives as { name?: unknown; args?: { scopes?: unknown } }[]) {
    if (directive?.name === 'authenticated') {
      found = true;
      authenticated = true;
    } else if (directive?.name === 'requiresScopes') {
      found = true;
      authenticated = true;
      const scopes = directive.args?.scopes;
      if (Array.isArray(scopes)) for (const set of scopes) if (Array.isArray(set)) anyOf.push(set.map(String));
    }
  }
  return found ? { authenticated, anyOf } : undefined;
}

/** Whether `scopes` meets the requirement: no scope set asked, or every scope of one of them held. */
export const meets = (requirement: ScopeRequirement, scopes: ReadonlySet<string>) =>
  requirement.anyOf.length === 0 || requirement.anyOf.some((set) => set.every((scope) => scopes.has(scope)));

/** The words of a refusal for want of a scope, on GraphQL and on the routes beside it alike. */
export function missingScopeMessage(scope: string, what?: string): string {
  return `${what ?? 'This'} needs the ${scope} scope, which your credentials do not have: ask for it in your sign-in (your identity provider grants it), or for an API key, in the tenants file's scopes.`;
}
