/**
 * `npm run idp`: the local OpenID Provider (scripts/idp/provider.ts) on 127.0.0.1:4020, for trying
 * sign-in with the web example. Development only. IDP_PORT changes the port; IDP_CLIENT_ORIGINS
 * (comma-separated) the web example's origins, default Vite's dev server (localhost:5173).
 */
import { PEOPLE } from './idp/people';
import { AUDIENCE, clientOrigins, DEFAULT_IDP_PORT } from './idp/defaults';
import { startIdp } from './idp/provider';

const port = Number(process.env.IDP_PORT || DEFAULT_IDP_PORT);
const idp = await startIdp({ port, clientOrigins: clientOrigins() });
console.log(`local OpenID Provider (development only) at ${idp.issuer}
  client ${idp.clientId} (public, authorization code + PKCE), returning to ${idp.redirectUris.join(', ')}
  access tokens: RFC 9068 JWTs for audience "${AUDIENCE}"
  people (login / password: scopes):
${PEOPLE.map((p) => `    ${p.login} / ${p.password}: ${p.scopes.join(' ')} (${p.name})`).join('\n')}
  titlegraph trusts it with EMULATOR_IDENTITY_ISSUER=${idp.issuer} npm start (docs/authentication.md, "Try it locally: npm run idp")`);

const stop = async () => {
  await idp.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
