/**
 * A request that failed as a whole because this service's database could not be reached (before
 * anything was sent to the register) is answered 503 with Retry-After, as a load balancer and a
 * retrying client expect, whether the failed field took `data` with it or left it as nulls
 * (`{"title": null}`: a nullable root field). With partial data (a root field that has a value)
 * the answer stays 200: the rest of it is good.
 */
import type { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { serviceUnavailableError } from '../graphql/errors';
import { RegisterError } from '../register/client';
import { DatabaseUnavailableError } from '../storage/database-unavailable';

/** Seen before Yoga masks errors (its plugin runs after ours): the original errors tell. */
function isStoreOutage(error: GraphQLError): boolean {
  const original = error.originalError;
  return (
    error.extensions?.code === 'SERVICE_UNAVAILABLE' ||
    original instanceof DatabaseUnavailableError ||
    (original instanceof RegisterError && original.code === 'SERVICE_UNAVAILABLE')
  );
}

/** Some root field has a value: that part of the answer is good. */
const hasSomeData = (data: Record<string, unknown> | null | undefined) =>
  !!data && Object.values(data).some((value) => value !== null && value !== undefined);

/** What an `onExecute` hook hands back: its hooks for the end of that execution. */
type ExecuteHooks = Exclude<Awaited<ReturnType<NonNullable<Plugin['onExecute']>>>, void>;

/** The same hooks for every request: nothing of a request is kept between them. */
const OUTAGE_STATUS: ExecuteHooks = {
  onExecuteDone({ result, setResult }) {
    if (isAsyncIterable(result) || hasSomeData(result.data) || !result.errors?.some(isStoreOutage)) return;
    const seconds = String(serviceUnavailableError().extensions.retryAfterSeconds);
    setResult({ ...result, extensions: { ...result.extensions, http: { status: 503, headers: { 'Retry-After': seconds } } } });
  },
};

export function useServiceUnavailableStatus(): Plugin {
  return {
    onExecute() {
      return OUTAGE_STATUS;
    },
  };
}
