/**
 * Sign-in with the firm's identity provider (OpenID Connect, authorization code + PKCE, with
 * oidc-client-ts): the page holds the person's access token, never a key, and titlegraph sees who
 * is calling and what they may do. On when VITE_OIDC_AUTHORITY is set at build time (e.g.
 * http://127.0.0.1:4020 for `npm run idp`); otherwise the page calls with an API key as before.
 *
 * The tokens live in sessionStorage (this tab, until it closes); there is no silent renewal: when
 * the access token expires, or titlegraph refuses it, the person signs in again.
 */
import { UserManager, type User } from 'oidc-client-ts';

const authority = import.meta.env.VITE_OIDC_AUTHORITY;

/** True when the page signs people in (VITE_OIDC_AUTHORITY set). */
export const signInEnabled = !!authority;

const manager = authority
  ? new UserManager({
      authority,
      client_id: import.meta.env.VITE_OIDC_CLIENT_ID ?? 'titlegraph-web',
      // the page itself finishes sign-in and sign-out (handleRedirect below)
      redirect_uri: `${location.origin}/`,
      post_logout_redirect_uri: `${location.origin}/`,
      response_type: 'code',
      scope: import.meta.env.VITE_OIDC_SCOPE ?? 'openid profile email titles:read titles:buy charges:read',
      // RFC 8707: which API the access token is for; unset, the provider's default
      ...(import.meta.env.VITE_OIDC_RESOURCE ? { resource: import.meta.env.VITE_OIDC_RESOURCE } : {}),
      automaticSilentRenew: false,
      loadUserInfo: false,
    })
  : undefined;

/** The person signed in, with an access token still valid; undefined otherwise. */
export async function signedIn(): Promise<User | undefined> {
  const user = await manager?.getUser();
  if (!user || user.expired) return undefined;
  return user;
}

/**
 * Finishes a sign-in or sign-out when the provider sends the browser back here (a `code`, or an
 * `error`, or a sign-out's `state` in the query), then takes those parameters out of the address
 * bar, so a reload does not replay them.
 */
export async function handleRedirect(): Promise<void> {
  if (!manager) return;
  const params = new URLSearchParams(location.search);
  if (!params.has('state') && !params.has('error')) return;
  try {
    if (params.has('code') || params.has('error')) await manager.signinRedirectCallback();
    else await manager.signoutRedirectCallback();
  } finally {
    history.replaceState(null, '', location.pathname);
  }
}

export const signIn = () => manager!.signinRedirect();

/** Forgets the tokens here and ends the session at the provider (which asks to confirm). */
export const signOut = () => manager!.signoutRedirect();

/** The access token was refused (expired early, revoked, keys rotated): forget it, so the page offers sign-in. */
export const forgetSignIn = () => manager?.removeUser();
