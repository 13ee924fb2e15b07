/**
 * The floor of the stack: graphql-yoga on node:http with none of titlegraph's plugins or features
 * (no caller auth, limits, quota, contract check, log, metrics, breaker), serving the Apollo peer's
 * `title` schema and resolvers (bench/peers/apollo-peer.mjs) from one undici request per title,
 * executed by graphql-jit as titlegraph's are.
 * bench/experiments/yoga-floor.ts loads it beside titlegraph and the Apollo peer, to show what
 * the HTTP and GraphQL layer alone costs against the peer's.
 *
 * Run by Node itself (type stripping, no build). Environment: REGISTER_BASE_URL; PORT (0: any),
 * prints "Bare yoga at <url>". The caller's Authorization (a register bearer token) is forwarded.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DocumentNode, ExecutionArgs } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { Agent, request } from 'undici';

const registerBaseUrl = process.env.REGISTER_BASE_URL;
const agent = new Agent({ connections: 32 });

// The Apollo peer's SDL, read from its file, so that both serve the same schema.
const peerSource = readFileSync(new URL('../peers/apollo-peer.mjs', import.meta.url), 'utf8');
const typeDefs = /const typeDefs = `#graphql([\s\S]*?)`;/.exec(peerSource)?.[1];
if (!typeDefs) throw new Error('the SDL in bench/peers/apollo-peer.mjs was not found');

type Summary = Record<string, unknown> & { date?: { titleSheetUpdatedTo?: string }; right?: { addresses?: unknown[] } };

const resolvers = {
  Query: {
    title: async (_parent: unknown, { titleNumber }: { titleNumber: string }, { request: req }: { request: Request }) => {
      const res = await request(`${registerBaseUrl}/titles/${encodeURIComponent(titleNumber)}/summary`, {
        dispatcher: agent,
        headers: { authorization: req.headers.get('authorization') ?? '' },
      });
      if (res.statusCode === 404) {
        await res.body.dump();
        return null;
      }
      return (JSON.parse(await res.body.text()) as { data: Summary }).data;
    },
  },
  Title: {
    titleSheetUpdatedTo: (title: Summary) => title.date?.titleSheetUpdatedTo ?? null,
    right: (title: Summary) => title.right ?? null,
    proprietorships: (title: Summary) => title.proprietorships ?? [],
    plans: (title: Summary) => title.plans ?? [],
    applications: (title: Summary) => title.applications ?? [],
  },
  TitleRight: { addresses: (right: { addresses?: unknown[] }) => right.addresses ?? [] },
};

// Executed by graphql-jit, as titlegraph executes a document that keeps coming back (src/server/jit.ts).
const compiled = new WeakMap<DocumentNode, CompiledQuery>();
const useJit: Plugin = {
  onExecute({ setExecuteFn }) {
    setExecuteFn((args: ExecutionArgs) => {
      let query = compiled.get(args.document);
      if (!query) {
        const made = compileQuery(args.schema, args.document, args.operationName ?? undefined);
        if (!isCompiledQuery(made)) return made;
        query = made;
        compiled.set(args.document, query);
      }
      return query.query(args.rootValue, args.contextValue, args.variableValues);
    });
  },
};

const yoga = createYoga({
  schema: createSchema({ typeDefs, resolvers }),
  plugins: [useJit],
  graphiql: false,
  landingPage: false,
  logging: false,
});
const server = createServer(yoga);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`Bare yoga at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
