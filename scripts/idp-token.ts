/**
 * `npm run -s idp:token -- ann`: signs a person in at the running local provider (`npm run idp`)
 * without a browser and prints their access token, for curl. IDP_URL (default
 * http://127.0.0.1:4020) names the provider, IDP_CLIENT_ORIGINS as given to it; the password is
 * the person's development one. The code comes back in the redirect to the web example's
 * address, which is read and never opened.
 */
import { findPerson, PEOPLE } from './idp/people';
import { clientOrigins, DEFAULT_IDP_PORT } from './idp/defaults';
import { signIn } from './idp/sign-in';

const login = process.argv[2] ?? '';
const person = findPerson(login);
if (!person) {
  console.error(`usage: npm run -s idp:token -- <${PEOPLE.map((p) => p.login).join('|')}>`);
  process.exit(2);
}
const issuer = process.env.IDP_URL || `http://127.0.0.1:${DEFAULT_IDP_PORT}`;
try {
  const tokens = await signIn({ issuer, login, password: person.password, redirectUri: `${clientOrigins()[0]}/` });
  console.log(tokens.access_token);
} catch (error) {
  // Only a connection that failed points at the provider not running; anything else is its answer.
  const unreachable = error instanceof TypeError && (error.cause as { code?: unknown } | undefined)?.code === 'ECONNREFUSED';
  const hint = unreachable ? ' (is `npm run idp` running?)' : '';
  console.error(`could not sign ${login} in at ${issuer}${hint}: ${(error as Error).message}`);
  process.exit(1);
}
