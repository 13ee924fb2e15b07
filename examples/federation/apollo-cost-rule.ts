/**
 * An operation-wide cost limit for @apollo/gateway, which has none of its own: each subgraph sees
 * only its share of a client operation, so three lists of 200 titles from another subgraph reach
 * titlegraph as separate `_entities` requests, each under titlegraph's own limit, and all run.
 * This prices the whole operation from the supergraph's demand-control directives (`@cost` on
 * fields and types, `@listSize` on lists: the numbers titlegraph publishes, 10 per register
 * call) and refuses it before the gateway plans or sends anything.
 *
 * Install: wrap the gateway Apollo Server is given,
 *   new ApolloServer({ gateway: withCostLimit(gateway, { maxCost: 5000 }), ... })
 * The wrapper reads each supergraph the gateway loads (composed with `withoutSecurityDirectives`
 * of apollo-gateway.ts, which keeps `@cost` and `@listSize`) and prices each operation with its
 * variables. A refusal is one error, `COST_ESTIMATED_TOO_EXPENSIVE` (the code Hive Gateway's demand
 * control uses) with `extensions.cost: { estimated, max }`, and no data.
 *
 * How it prices, as titlegraph's own limit does (src/security/cost.ts) and as Hive Gateway's
 * demand control does for titlegraph's fields: a field's own `@cost` once each time it resolves;
 * the `@cost` of the object type it returns (for a union, its dearest member) once per item; what
 * is selected under it once per item. A list's items are its `@listSize`: the largest of its
 * `slicingArguments` the operation gives (`orders(first: 200)` is 200), else its `assumedSize`,
 * else `defaultListSize` (1): a subgraph must declare `@listSize` on its lists for them to be
 * priced. Fragments are priced where they are spread, as often as they are.
 *
 * test/interop/apollo-cost-rule.test.ts runs it through @apollo/gateway.
 */
import {
  type ConstDirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  type ObjectTypeDefinitionNode,
  GraphQLError,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';

/** The demand-control spec the supergraph links its `@cost` and `@listSize` from. */
const COST_SPEC = /^https:\/\/specs\.apollo\.dev\/cost\/v[\d.]+$/;

interface ListSize {
  assumedSize?: number;
  slicingArguments?: string[];
  sizedFields?: string[];
}

/** What the supergraph says things cost: `Type` and `Type.field` weights, and `Type.field` list sizes. */
export interface Pricing {
  weights: ReadonlyMap<string, number>;
  listSizes: ReadonlyMap<string, ListSize>;
}

export interface CostLimitOptions {
  /** The most an operation may cost (titlegraph's own MAX_COST is 5000: 500 register calls). */
  maxCost: number;
  /** Items assumed in a list that declares no `@listSize`. */
  defaultListSize?: number;
}

/** The names the supergraph gives the spec's directives: imported (perhaps renamed), or prefixed. */
function costDirectiveNames(document: DocumentNode): { cost: Set<string>; listSize: Set<string> } {
  const names = { cost: new Set(['cost', 'cost__cost']), listSize: new Set(['listSize', 'cost__listSize']) };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.SCHEMA_DEFINITION && definition.kind !== Kind.SCHEMA_EXTENSION) continue;
    for (const link of definition.directives ?? []) {
      const args = Object.fromEntries((link.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]));
      if (link.name.value !== 'link' || !COST_SPEC.test(String(args.url))) continue;
      if (typeof args.as === 'string') {
        names.cost.add(`${args.as}__cost`);
        names.listSize.add(`${args.as}__listSize`);
      }
      for (const entry of (args.import as unknown[] | undefined) ?? []) {
        const { name, as } = typeof entry === 'string' ? { name: entry, as: entry } : (entry as { name: string; as?: string });
        const own = name.replace(/^@/, '') as 'cost' | 'listSize';
        if (own in names) names[own].add((as ?? name).replace(/^@/, ''));
      }
    }
  }
  return names;
}

/** Where `@cost` and `@listSize` count: on object and interface types and their fields. */
const PRICED_KINDS = new Set<string>([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.OBJECT_TYPE_EXTENSION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_EXTENSION,
]);

/** The `@cost` weights and `@listSize` sizes a supergraph (or a subgraph's SDL) declares. */
export function pricingOf(sdl: string): Pricing {
  const document = parse(sdl);
  const names = costDirectiveNames(document);
  const weights = new Map<string, number>();
  const listSizes = new Map<string, ListSize>();
  const argsOf = (directive: ConstDirectiveNode) =>
    Object.fromEntries((directive.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]));
  const weightIn = (directives: readonly ConstDirectiveNode[] | undefined) => {
    const cost = directives?.find((d) => names.cost.has(d.name.value));
    return cost ? Number(argsOf(cost).weight) || 0 : undefined;
  };
  for (const definition of document.definitions) {
    if (!PRICED_KINDS.has(definition.kind)) continue;
    const { name, directives, fields } = definition as ObjectTypeDefinitionNode;
    const own = weightIn(directives);
    if (own !== undefined) weights.set(name.value, own);
    for (const field of fields ?? []) {
      const key = `${name.value}.${field.name.value}`;
      const weight = weightIn(field.directives);
      if (weight !== undefined) weights.set(key, weight);
      const listSize = field.directives?.find((d) => names.listSize.has(d.name.value));
      if (listSize) listSizes.set(key, argsOf(listSize) as ListSize);
    }
  }
  return { weights, listSizes };
}

const isList = (type: GraphQLType): boolean => isListType(isNonNullType(type) ? type.ofType : type);

/**
 * The estimated cost of the operation `operationName` (or the document's only one) with these
 * variables, in the schema the gateway serves (its API schema) priced by `pricing`.
 */
export function estimateCost(
  pricing: Pricing,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> = {},
  defaultListSize = 1,
): number {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return 0;
  // A variable the request leaves out takes the operation's default, as execution would.
  const values: Record<string, unknown> = { ...variables };
  for (const definition of operation.variableDefinitions ?? [])
    if (!(definition.variable.name.value in values) && definition.defaultValue)
      values[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );

  /** A field's weight: on the type that has it, else on an interface it implements. */
  const fieldWeight = (type: GraphQLNamedType, field: string): number => {
    const own = pricing.weights.get(`${type.name}.${field}`);
    if (own !== undefined || !isObjectType(type)) return own ?? 0;
    for (const parent of type.getInterfaces()) {
      const inherited = pricing.weights.get(`${parent.name}.${field}`);
      if (inherited !== undefined) return inherited;
    }
    return 0;
  };
  const itemWeight = (type: GraphQLNamedType): number =>
    isObjectType(type)
      ? (pricing.weights.get(type.name) ?? 0)
      : isUnionType(type)
        ? Math.max(0, ...type.getTypes().map((member) => pricing.weights.get(member.name) ?? 0))
        : 0;

  /** `times`: how often this selection set resolves; `sized`: child fields a parent's @listSize(sizedFields) sizes. */
  const walk = (set: SelectionSetNode, type: GraphQLNamedType, times: number, sized: ReadonlyMap<string, number>): number => {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        cost += walk(selection.selectionSet, on ?? type, times, sized);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        const on = fragment && schema.getType(fragment.typeCondition.name.value);
        if (fragment && on) cost += walk(fragment.selectionSet, on, times, sized);
        continue;
      }
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      const field = type.getFields()[selection.name.value];
      // __typename, or a field validation refuses anyway.
      if (!field) continue;
      const named = getNamedType(field.type);
      const key = `${type.name}.${field.name}`;
      const listSize = pricing.listSizes.get(key);
      let items = 1;
      let sizes: ReadonlyMap<string, number> = new Map();
      const args = Object.fromEntries((selection.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value, values)]));
      const sliced = Math.max(0, ...(listSize?.slicingArguments ?? []).map((name) => Number(args[name]) || 0));
      const declared = sliced || listSize?.assumedSize || 0;
      if (listSize?.sizedFields?.length) sizes = new Map(listSize.sizedFields.map((name) => [name, declared || defaultListSize]));
      else if (sized.has(field.name)) items = sized.get(field.name)!;
      else if (declared) items = declared;
      else if (isList(field.type)) items = defaultListSize;
      cost += times * (fieldWeight(type, field.name) + items * itemWeight(named));
      if (selection.selectionSet) cost += walk(selection.selectionSet, named, times * items, sizes);
    }
    return cost;
  };
  const root = schema.getRootType(operation.operation);
  return root ? walk(operation.selectionSet, root, 1, new Map()) : 0;
}

export function costTooHighError(estimated: number, max: number): GraphQLError {
  return new GraphQLError(
    `This operation is estimated to cost ${estimated}, above the gateway's limit of ${max}, so nothing was sent. Each register call it would make costs 10 (the supergraph's @cost), a list counting as many items as its @listSize says: ask for fewer items, or split the operation.`,
    { extensions: { code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { estimated, max } } },
  );
}

/** What the wrapper needs of an ApolloGateway (Apollo Server's GatewayInterface). */
interface Gateway {
  load(options?: never): Promise<{ executor: ((requestContext: never) => Promise<unknown>) | null }>;
  onSchemaLoadOrUpdate(callback: (update: { apiSchema: GraphQLSchema; coreSupergraphSdl: string }) => void): () => void;
  stop(): Promise<void>;
}

/** What the executor reads of Apollo Server's request context. */
interface CostedRequest {
  document: DocumentNode;
  operationName: string | null;
  request: { variables?: Record<string, unknown> };
}

/**
 * `gateway`, with every operation priced before its executor runs: over `maxCost` it answers
 * the refusal and the gateway plans and sends nothing. Until a supergraph has loaded, nothing runs.
 */
export function withCostLimit<G extends Gateway>(gateway: G, options: CostLimitOptions): G {
  let current: { schema: GraphQLSchema; pricing: Pricing } | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema, coreSupergraphSdl }) => {
    current = { schema: apiSchema, pricing: pricingOf(coreSupergraphSdl) };
  });
  const load = async (...args: Parameters<G['load']>) => {
    const loaded = await gateway.load(...args);
    const executor = loaded.executor;
    if (!executor) return loaded;
    return {
      ...loaded,
      executor: async (requestContext: CostedRequest) => {
        if (!current) {
          return {
            errors: [
              new GraphQLError('The gateway has not loaded its supergraph yet, so it cannot price this operation. Try again shortly.', {
                extensions: { code: 'COST_LIMIT_NOT_READY' },
              }),
            ],
          };
        }
        const estimated = estimateCost(
          current.pricing,
          current.schema,
          requestContext.document,
          requestContext.operationName,
          requestContext.request.variables ?? {},
          options.defaultListSize,
        );
        if (estimated > options.maxCost) return { errors: [costTooHighError(estimated, options.maxCost)] };
        return executor(requestContext as never);
      },
    };
  };
  return new Proxy(gateway, {
    get: (target, property, receiver) => (property === 'load' ? load : Reflect.get(target, property, receiver)),
  });
}
