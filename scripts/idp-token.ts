/**
 * `npm run -s idp:token -- ann`: signs a person in at the running local provider (`npm run idp`)
 * without a browser and prints their access token, for curl. IDP_URL (default
 * http://127.0.0.1:4020) names the provider; the password is the person's development one.
 */
import { findPerson, PEOPLE } from './idp/people';
import { DEFAULT_CLIENT_ORIGINS, DEFAULT_IDP_PORT } from './idp/defaults';
import { signIn } from './idp/sign-in';

const login = process.argv[2] ?? '';
const person = findPerson(login);
if (!person) {
  console.error(`usage: npm run -s idp:token -- <${PEOPLE.map((p) => p.login).join('|')}>`);
  process.exit(2);
}
const issuer = process.env.IDP_URL || `http://127.0.0.1:${DEFAULT_IDP_PORT}`;
try {
  const tokens = await signIn({ issuer, login, password: person.password, redirectUri: `${DEFAULT_CLIENT_ORIGINS[0]}/` });
  console.log(tokens.access_token);
} catch (error) {
  console.error(`could not sign ${login} in at ${issuer} (is \`npm run idp\` running?): ${(error as Error).message}`);
  process.exit(1);
}
