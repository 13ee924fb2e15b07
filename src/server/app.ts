/**
 * createApp(services, options) → a graphql-yoga instance. It never listens: main.ts and tests
 * decide how to serve it. `options` are sections of `AppConfig` as config.ts reads them (main.ts
 * hands the whole configuration over); what is left out takes the defaults the plugins own.
 */
import { GraphQLError } from 'graphql';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga, maskError as defaultMaskError, type YogaServerInstance } from 'graphql-yoga';
import { createContext, type Context, type Services } from '../graphql/context';
import { corsOption, useVaryOrigin } from './cors';
import { useDownloads } from './downloads';
import { useAuthentication } from './authentication';
import { useOperationNameHelp } from './operation-name';
import { useQueryCaching } from './http-caching';
import { useAutomaticPersistedQueries } from './automatic-persisted-queries';
import type { ApqStore } from '../storage/apq/store';
import { graphQLErrorFromRegister, serviceUnavailableError } from '../graphql/errors';
import { DatabaseUnavailableError } from '../storage/database-unavailable';
import { useChargesInAnswer } from './charges-in-answer';
import { useWarningsInAnswer } from './warnings-in-answer';
import { useServiceUnavailableStatus } from './service-unavailable';
import { useStatementsCsv } from './statements-csv';
import { useCaseInsensitiveMediaTypes } from './media-types';
import { useIncrementalFormat } from './incremental-format';
import { useAcceptableAnswer } from './acceptable-answer';
import { useInputErrorWording } from './input-errors';
import { useRequestLogging, yogaLogger, type Logger } from '../observability/logging';
import { originOf, requestIdOf, useRequestRecord } from '../observability/request-record';
import { useGraphiQLOffPage, useGraphiQLPage } from './graphiql';
import { useJitExecution } from './jit';
import { CallerGone } from './caller-gone';
import type { ServerResponse } from 'node:http';
import { PERSISTED_OPERATION_PARAM_NAMES, usePersistedOperationList } from './persisted-operations';
import { DEFAULT_COMPILE_AFTER, type PersistedOperations } from './settings';
import { RegisterError } from '../register/client';
import { useMetrics, useReadiness, useTracing } from '../observability';
import type { ObservabilityOptions } from '../observability/settings';
import { buildSchema } from '../graphql/schema';
import { DEFAULT_LIMITS, type HardeningOptions } from '../security/settings';
import { useHardening } from '../security/plugins';
import { useGatewayMark } from '../security/gateway-mark';
import { validatedOncePerDocument } from './validation-once';

export interface AppOptions {
  graphiql?: boolean;
  /** Shown in GraphiQL: e.g. how to authenticate against the embedded emulator. */
  graphiqlNote?: string;
  /** Allow-list of persisted operations (codegen's persisted documents); `only` refuses anything else. */
  persistedOperations?: PersistedOperations;
  /** Abuse limits, introspection and field suggestions (defaults: DEFAULT_LIMITS, both on). */
  hardening?: Partial<HardeningOptions>;
  /** Front-end origins allowed by CORS (`*`: any); empty or absent: no CORS headers (same-origin only). */
  corsOrigins?: readonly string[];
  /** /metrics, /ready (when `services.transport` is there) and tracing; /health is yoga's. */
  observability?: ObservabilityOptions;
  /** Structured request logs (allow-listed fields only); absent: Yoga's default console logging. */
  logger?: Logger;
  /** Automatic persisted queries each API client may register a minute (APQ_REGISTRATIONS_PER_MINUTE). */
  apq?: { registrationsPerMinute: number };
  /** Run a document as graphql-jit compiled it once it has run `compileAfter` times (default DEFAULT_COMPILE_AFTER; see jit.ts); false: never. */
  jit?: false | { compileAfter: number };
}

export const EXAMPLE_QUERY = `# titlegraph: the land register over GraphQL.
# Press the run button to fetch the free summary of a fixture title and its securities.
query TitleWithSecurities {
  title(titleNumber: "MID15313") {
    titleNumber
    status
    right { description addresses { street town postcode } }
    plans { description paperSize }
    securities { id specification dateOfRegistration }
  }
}
`;

/**
 * A new error with `message` and `extensions`, in the place `error` was: its nodes (hence its
 * locations) and its path. Errors are never written to: each stays as its maker made it.
 */
function inPlaceOf(error: unknown, message: string, extensions: Record<string, unknown> | undefined): GraphQLError {
  const from = error instanceof GraphQLError ? error : undefined;
  return new GraphQLError(message, {
    ...(from?.nodes ? { nodes: from.nodes } : {}),
    ...(from?.path ? { path: from.path } : {}),
    ...(extensions ? { extensions } : {}),
  });
}

/** Register failures become stable codes; anything unexpected is masked (no stack, URL, token or FAS). */
function maskError(error: unknown, message: string): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  // A refusal of the request itself (a body that is not JSON, a missing query): Yoga gave it its
  // HTTP status and words, which production keeps; only the internals it carried are dropped.
  // A body that is not JSON is no GraphQL response at all: 400 under application/json too, as
  // the GraphQL-over-HTTP spec asks (Yoga marks it `spec`, which would make it 200 there).
  if (error instanceof GraphQLError && error.extensions?.http && !(original instanceof RegisterError)) {
    const { originalError: cause, ...extensions } = error.extensions as Record<string, unknown> & { http: object };
    // Unchanged, it is returned as it is: Yoga logs every error that masking replaced, and a
    // coercion error's message holds the value the caller sent (a FAS, say).
    if (cause === undefined) return error;
    const notJson = (cause as { name?: unknown }).name === 'SyntaxError';
    return inPlaceOf(error, error.message, notJson ? { ...extensions, http: { ...extensions.http, spec: false } } : extensions);
  }
  if (original instanceof DatabaseUnavailableError) {
    const refusal = serviceUnavailableError();
    return inPlaceOf(error, refusal.message, refusal.extensions);
  }
  if (original instanceof RegisterError) {
    const mapped = graphQLErrorFromRegister(original);
    return inPlaceOf(error, mapped.message, mapped.extensions);
  }
  // Never the dev variant: it would put the original message and stack in extensions.
  const masked = defaultMaskError(error, message, false);
  // An error Yoga's masking leaves alone (a GraphQL error of the caller's own making) stays as it
  // is: a replaced one is logged, with the value the caller sent in its message.
  if (masked === error || !(masked instanceof GraphQLError)) return masked;
  return inPlaceOf(error, masked.message, masked.extensions);
}

/** The APQ store, answering the allow-listed operations' hashes too (for every organisation). */
function withListed(store: ApqStore, listed: PersistedOperations | undefined): ApqStore {
  if (!listed) return store;
  return {
    ...store,
    get: async (organisation, hash) => listed.store.get(`sha256:${hash}`) ?? store.get(organisation, hash),
    set: (organisation, hash, query) => store.set(organisation, hash, query),
  };
}

export function createApp(services: Services, options: AppOptions = {}): YogaServerInstance<object, Context> {
  const observability = options.observability ?? {};
  const note = options.graphiqlNote ? `# ${options.graphiqlNote.split('\n').join('\n# ')}\n` : '';
  return createYoga<object, Context>({
    schema: buildSchema(),
    // Behind Node's server (every real deployment) the caller's going away is read from the response; `yoga.fetch` has the request's signal.
    context: ({ request, res }: { request: Request; res?: ServerResponse }) =>
      createContext(services, request, requestIdOf(request), originOf(request), res ? new CallerGone(res) : request.signal),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    cors: corsOption(options.corsOrigins ?? []),
    // One operation per request: a batch would multiply every per-request limit.
    batching: false,
    // The hardening plugins already refuse a POST without Content-Length or above maxBodyBytes,
    // and Node's HTTP parser never reads more body than Content-Length, so Yoga's own limiter
    // could never trigger. It is off: it pipes every request body through a TransformStream,
    // ~200 µs of CPU per request (npm run bench, side by side: `{ __typename }` 2 300 → 4 100
    // req/s, `title` 1 000 → 1 600 req/s).
    maxRequestBodySize: false,
    // GraphiQL is served by useGraphiQLPage (bundled, compressed, with a validator).
    graphiql: false,
    maskedErrors: { maskError },
    ...(options.logger ? { logging: yogaLogger(options.logger) } : {}),
    ...(options.persistedOperations ? { extraParamNames: PERSISTED_OPERATION_PARAM_NAMES } : {}),
    // Documents are still parsed once (Yoga's cache) and validated once (validatedOncePerDocument):
    // a plugin's onValidate hook must decide from the schema and the document alone, never the caller.
    parserAndValidationCache: { validationCache: false },
    plugins: validatedOncePerDocument([
      // First: the request's id, start and operation, which the log, the metrics and the traces read.
      useRequestRecord(),
      options.graphiql
        ? useGraphiQLPage('/graphql', { title: 'titlegraph', defaultQuery: note + EXAMPLE_QUERY })
        : useGraphiQLOffPage('/graphql'),
      // @defer and @stream (multipart/mixed or SSE): a page of titles arrives item by item.
      useDeferStream(),
      useIncrementalFormat(),
      ...(options.jit === false
        ? []
        : [
            useJitExecution(options.jit ?? { compileAfter: DEFAULT_COMPILE_AFTER }, (outcome) =>
              services.events.emit('documentCompiled', { outcome }),
            ),
          ]),
      ...(options.logger ? [useRequestLogging(options.logger)] : []),
      ...(observability.metrics === false
        ? []
        : [useMetrics(services, typeof observability.metrics === 'object' ? observability.metrics : {})]),
      useReadiness(services, observability.readiness),
      ...(observability.tracing ? [useTracing(services)] : []),
      ...(options.corsOrigins?.length ? [useVaryOrigin()] : []),
      // Before the body is read, and again before execution: an answer the caller cannot take is refused before anything runs.
      useAcceptableAnswer(),
      // Before the body is read: without valid credentials nothing of the request is parsed.
      useAuthentication(services),
      // At execution, whichever executor runs: a known gateway's chargeable mutation needs its money rules' mark.
      useGatewayMark(services),
      useCaseInsensitiveMediaTypes(),
      useInputErrorWording(),
      useDownloads(services),
      useStatementsCsv(services),
      useChargesInAnswer(),
      useWarningsInAnswer(),
      useServiceUnavailableStatus(),
      useOperationNameHelp(),
      useQueryCaching(() => services.summaryCaches.ttlMs),
      ...useHardening({
        limits: options.hardening?.limits ?? DEFAULT_LIMITS,
        introspection: options.hardening?.introspection ?? true,
        fieldSuggestions: options.hardening?.fieldSuggestions ?? true,
      }),
      // Automatic persisted queries, unless only listed operations may run; listed ones are hits too.
      ...(options.persistedOperations?.only
        ? []
        : [useAutomaticPersistedQueries(withListed(services.apq, options.persistedOperations), options.apq?.registrationsPerMinute)]),
      ...(options.persistedOperations ? [usePersistedOperationList(options.persistedOperations)] : []),
    ]),
  });
}
