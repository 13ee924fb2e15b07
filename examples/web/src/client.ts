/**
 * A typed GraphQL client in a few lines: `execute(document, variables)` takes a document that
 * GraphQL Code Generator made (./gql) and returns its exact result type.
 *
 * With VITE_PERSISTED_OPERATIONS=true the query text never leaves the browser: the request names
 * the operation by the id codegen gave it (`documentId`), for a service running with
 * PERSISTED_OPERATIONS_ONLY=true and ./gql/persisted-documents.json as PERSISTED_OPERATIONS_FILE.
 */
import type { TypedDocumentString } from './gql/graphql';

/** The service: VITE_TITLEGRAPH_URL (e.g. http://localhost:4000), or this page's own origin. */
export const serviceUrl = (import.meta.env.VITE_TITLEGRAPH_URL ?? '').replace(/\/+$/, '');
const persisted = import.meta.env.VITE_PERSISTED_OPERATIONS === 'true';
/**
 * What calls carry as `Authorization: Bearer`: the signed-in person's access token (./auth.ts),
 * or without sign-in VITE_TITLEGRAPH_API_KEY, development only (a key baked into a bundle is
 * public); with neither, the embedded emulator acts as dev-key-a.
 */
let bearer = import.meta.env.VITE_TITLEGRAPH_API_KEY;

/** From sign-in on, calls carry this person's access token (undefined: nobody signed in), never the build's key. */
export function setAccessToken(token: string | undefined) {
  bearer = token;
}

export class GraphQLRequestError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    /** The HTTP status: 401 when the credentials were refused. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export async function execute<Result, Variables>(document: TypedDocumentString<Result, Variables>, variables: Variables): Promise<Result> {
  const operation = persisted ? { documentId: document.__meta__?.hash, variables } : { query: document.toString(), variables };
  const response = await fetch(`${serviceUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(operation),
  });
  const body = (await response.json().catch(() => ({}))) as {
    data?: Result | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  const error = body.errors?.[0];
  if (error) throw new GraphQLRequestError(error.message, error.extensions?.code, response.status);
  // Credentials refused, in whatever body: the page asks the person to sign in again.
  if (response.status === 401) {
    const why = response.headers.get('www-authenticate')?.match(/error_description="([^"]*)"/)?.[1];
    throw new GraphQLRequestError(why ?? 'The service refused these credentials.', 'UNAUTHENTICATED', 401);
  }
  // No GraphQL answer at all: a proxy's 502/504 or an empty error page, not the service speaking.
  if (!response.ok || !body.data) throw new GraphQLRequestError('The service did not answer: is `npm start` running?');
  return body.data;
}
