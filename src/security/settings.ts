/**
 * The security layer's settings: the abuse limits every request is measured against before any
 * resolver runs, and what production turns off. A leaf without imports, so that reading the
 * settings loads nothing of the hardening plugins.
 */

/** Abuse limits: every request is measured against these before any resolver runs. */
export interface AbuseLimits {
  /** Deepest selection nesting. The contract's deepest real path (title details → schedules → entries → sub-entries → field) needs 7. */
  maxDepth: number;
  /** Aliased fields per operation. */
  maxAliases: number;
  /** Lexical tokens per document. */
  maxTokens: number;
  /** Directives per operation. */
  maxDirectives: number;
  /** Estimated cost (see cost.ts): register calls weigh most, and every `titles` item counts. */
  maxCost: number;
  /** Characters of the GraphQL document. */
  maxDocumentBytes: number;
  /** Bytes of the HTTP request body. */
  maxBodyBytes: number;
  /**
   * Distinct titles one `_entities` request may ask for (duplicates cost nothing). A gateway
   * merges its clients' references into one batch and never splits it to fit, so this is above
   * `titles`' 100; the cost limit still holds the operation as a whole.
   */
  maxEntityTitles: number;
}

/** What the hardening plugins are given: the limits, and what production turns off. */
export interface HardeningOptions {
  limits: AbuseLimits;
  /** Production: no introspection and no "did you mean" field suggestions. */
  introspection: boolean;
  fieldSuggestions: boolean;
}

/** graphql-armor's defaults are depth 6, aliases 15, tokens 1000, directives 50, cost 5000. */
export const DEFAULT_LIMITS: AbuseLimits = {
  maxDepth: 7,
  maxAliases: 15,
  maxTokens: 1000,
  maxDirectives: 50,
  maxCost: 5000,
  maxDocumentBytes: 16 * 1024,
  maxBodyBytes: 64 * 1024,
  maxEntityTitles: 500,
};
