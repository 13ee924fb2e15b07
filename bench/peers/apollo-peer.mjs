/**
 * The second peer of `npm run bench`: the GraphQL layer most teams would write by hand, Apollo
 * Server 5 with `@apollo/datasource-rest`, written the way Apollo's docs show it: a RESTDataSource
 * subclass with a `baseURL` and a `willSendRequest` that adds the bearer token, created per request
 * in the context function of `startStandaloneServer`, a small SDL for the `title` query (the fields
 * the benchmark selects) and resolvers that call the data source. Nothing else: no caller auth,
 * limits, logs, metrics, response validation or breaker. That is the point of the comparison.
 *
 * Plain ESM JavaScript, run with bench/peers' own node_modules (no build). Environment:
 *   REGISTER_BASE_URL  the register (emulator) base URL, e.g. http://127.0.0.1:4010/v1
 *   REGISTER_TOKEN     optional: the register bearer token to use when the caller sends none
 *   PORT, HOST         where to listen (PORT=0: any free port); prints "Apollo peer at <url>"
 * Like the Mesh peer, the caller's `Authorization` header (a register bearer token) is forwarded
 * to the register as it is.
 */
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { RESTDataSource } from '@apollo/datasource-rest';

const registerBaseUrl = process.env.REGISTER_BASE_URL ?? 'http://127.0.0.1:4010/v1';
const fallbackToken = process.env.REGISTER_TOKEN;

class RegisterAPI extends RESTDataSource {
  // the common prefix with a trailing slash, paths without a leading one (the docs' advice)
  baseURL = registerBaseUrl.endsWith('/') ? registerBaseUrl : `${registerBaseUrl}/`;

  constructor(options) {
    super(options); // passes the server's cache through
    this.token = options.token;
  }

  willSendRequest(_path, request) {
    if (this.token) request.headers.authorization = this.token;
  }

  async getTitleSummary(titleNumber) {
    try {
      const body = await this.get(`titles/${encodeURIComponent(titleNumber)}/summary`);
      return body.data;
    } catch (error) {
      if (error.extensions?.response?.status === 404) return null; // no such title
      throw error;
    }
  }
}

const typeDefs = `#graphql
  scalar TitleNumber

  type Query {
    "Title summary. Null when the register has no such title."
    title(titleNumber: TitleNumber!): Title
  }

  type Title {
    titleNumber: TitleNumber!
    status: String!
    titleType: String
    searchSheet: String
    titleSheetUpdatedTo: String
    right: TitleRight
    proprietorships: [Proprietorship!]!
    plans: [PlanSummary!]!
    applications: [ApplicationSummary!]!
  }

  type TitleRight {
    type: String
    description: String
    addresses: [Address!]!
  }

  type Address {
    name: String
    number: Int
    street: String
    locality: String
    town: String
    postcode: String
    uprn: String
  }

  type Proprietorship {
    considerationEntries: [ConsiderationEntry!]!
  }

  type ConsiderationEntry {
    dateOfEntry: String
    dateOfRegistration: String
    consideration: String
  }

  type PlanSummary {
    type: String
    paperSize: Int
    description: String
    lastUpdated: String
  }

  type ApplicationSummary {
    applicationNumber: String!
    applicationDate: String
    type: CodeLabel
  }

  type CodeLabel {
    code: String
    prettyPrint: String
  }
`;

const resolvers = {
  Query: {
    title: (_parent, { titleNumber }, { dataSources }) => dataSources.registerAPI.getTitleSummary(titleNumber),
  },
  Title: {
    titleSheetUpdatedTo: (title) => title.date?.titleSheetUpdatedTo ?? null,
    right: (title) => title.right ?? null,
    proprietorships: (title) => title.proprietorships ?? [],
    plans: (title) => title.plans ?? [],
    applications: (title) => title.applications ?? [],
  },
  TitleRight: {
    addresses: (right) => right.addresses ?? [],
  },
};

const server = new ApolloServer({ typeDefs, resolvers });

const { url } = await startStandaloneServer(server, {
  context: async ({ req }) => {
    const { cache } = server;
    const token = req.headers.authorization ?? (fallbackToken ? `Bearer ${fallbackToken}` : undefined);
    return { dataSources: { registerAPI: new RegisterAPI({ cache, token }) } };
  },
  listen: { port: Number(process.env.PORT ?? 4000), host: process.env.HOST ?? '127.0.0.1' },
});
console.log(`Apollo peer at ${url}`);

const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
