/**
 * @apollo/gateway and titlegraph's access-control directives. titlegraph declares each field's
 * scope with `@requiresScopes` (and `@authenticated`), and composition carries them into the
 * supergraph as features `for: SECURITY`, for a router to enforce. Apollo Router, Hive Gateway and
 * Hive Router read them; @apollo/gateway does not, and refuses to load any supergraph that has
 * them ("feature https://specs.apollo.dev/requiresScopes/v0.1 is for: SECURITY but is
 * unsupported") rather than ignore them silently.
 *
 * titlegraph enforces the same directives itself on every request (a field the caller's token
 * or key has no scope for answers FORBIDDEN, and a purchase refused so sends nothing), so the
 * gateway may run without them: wrap its supergraph source with `forApolloGateway`, which removes
 * these features and nothing else. The gateway then checks no scope itself; titlegraph still does.
 *
 *   new ApolloGateway({ supergraphSdl: forApolloGateway(new IntrospectAndCompose({ subgraphs })), buildService })
 *   new ApolloGateway({ supergraphSdl: withoutSecurityFeatures(readFileSync('supergraph.graphql', 'utf8')), buildService })
 *
 * test/interop/federation-sign-in.test.ts loads this file.
 */
import type { SupergraphManager } from '@apollo/gateway';
import { type ArgumentNode, type DirectiveNode, Kind, parse, print, visit } from 'graphql';

/** The access-control specs a router enforces and @apollo/gateway cannot. */
const SECURITY_SPECS = [
  'https://specs.apollo.dev/authenticated/',
  'https://specs.apollo.dev/requiresScopes/',
  'https://specs.apollo.dev/policy/',
];

const stringArgument = (args: readonly ArgumentNode[] | undefined, name: string) => {
  const value = args?.find((arg) => arg.name.value === name)?.value;
  return value?.kind === Kind.STRING ? value.value : undefined;
};

/** The name a `@link` gives its feature in the supergraph: its `as:`, or the spec's own name from its URL. */
function linkedSecurityFeature(directive: DirectiveNode): string | undefined {
  if (directive.name.value !== 'link') return undefined;
  const url = stringArgument(directive.arguments, 'url');
  if (!url || !SECURITY_SPECS.some((spec) => url.startsWith(spec))) return undefined;
  return stringArgument(directive.arguments, 'as') ?? new URL(url).pathname.split('/').filter(Boolean)[0];
}

/** The supergraph without the access-control features (their `@link`s, directives, definitions and types), unchanged otherwise. */
export function withoutSecurityFeatures(supergraphSdl: string): string {
  const document = parse(supergraphSdl);
  const features = new Set<string>();
  visit(document, {
    SchemaDefinition(node) {
      for (const directive of node.directives ?? []) {
        const name = linkedSecurityFeature(directive);
        if (name) features.add(name);
      }
    },
  });
  if (features.size === 0) return supergraphSdl;
  const ours = (name: string) => features.has(name) || [...features].some((feature) => name.startsWith(`${feature}__`));
  const stripped = visit(document, {
    Directive: (node) => (linkedSecurityFeature(node) || ours(node.name.value) ? null : undefined),
    DirectiveDefinition: (node) => (ours(node.name.value) ? null : undefined),
    ScalarTypeDefinition: (node) => (ours(node.name.value) ? null : undefined),
    EnumTypeDefinition: (node) => (ours(node.name.value) ? null : undefined),
  });
  return print(stripped);
}

/** A supergraph source (IntrospectAndCompose, LocalCompose, Uplink) whose every supergraph loses the access-control features. */
export function forApolloGateway(manager: SupergraphManager): SupergraphManager {
  return {
    async initialize(options) {
      const result = await manager.initialize({
        ...options,
        update: (supergraphSdl) => options.update(withoutSecurityFeatures(supergraphSdl)),
        healthCheck: (supergraphSdl) => options.healthCheck(withoutSecurityFeatures(supergraphSdl)),
      });
      return { ...result, supergraphSdl: withoutSecurityFeatures(result.supergraphSdl) };
    },
  };
}
