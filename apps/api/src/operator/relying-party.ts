import * as oidc from 'openid-client';
import { isRole, type Role } from './roles';

export interface RelyingPartySettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scope: string;
  /** The ID token claim that carries the operator's roles (an array, or a space/comma-separated string). */
  rolesClaim: string;
  /** Refuse a sign-in whose amr/acr do not show a second factor. */
  requireMfa: boolean;
  /** The acr values that count as multi-factor (amr counts when it lists anything beside a password). */
  mfaAcrValues: string[];
  /** The sandbox's provider speaks plain HTTP. */
  allowHttp: boolean;
  /** Tests reach the embedded provider through inject. */
  fetch?: oidc.CustomFetch | undefined;
}

export interface SignInStart {
  url: string;
  state: string;
  codeVerifier: string;
  nonce: string;
}

export type SignInResult =
  | { ok: true; subject: string; name: string; roles: Role[]; idToken: string | undefined }
  | { ok: false; reason: 'mfa' | 'invalid' };

const SINGLE_FACTOR_AMR = new Set(['pwd', 'pin', 'kba']);

/** True when the ID token says a second factor was used: amr beyond a password (RFC 8176), or a configured acr. */
export function hasSecondFactor(claims: { amr?: unknown; acr?: unknown }, mfaAcrValues: readonly string[]): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((v): v is string => typeof v === 'string') : [];
  if (amr.includes('mfa') || amr.some((method) => !SINGLE_FACTOR_AMR.has(method))) return true;
  return typeof claims.acr === 'string' && mfaAcrValues.includes(claims.acr);
}

/** The roles the claim carries, ours only; anything else in it is ignored. */
export function rolesFrom(value: unknown): Role[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  return [...new Set(list.filter(isRole))];
}

/** The console's side of OpenID Connect: authorization code with PKCE (S256), state and nonce, via openid-client. */
export function createRelyingParty(settings: RelyingPartySettings) {
  let configuration: Promise<oidc.Configuration> | undefined;
  // Discovered on the first sign-in, so the API boots while the provider is away; a failure is asked again next time.
  const config = () =>
    (configuration ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        execute: settings.allowHttp ? [oidc.allowInsecureRequests] : [],
        ...(settings.fetch ? { [oidc.customFetch]: settings.fetch } : {}),
      })
      .catch((error: unknown) => {
        configuration = undefined;
        throw error;
      }));

  return {
    async start(): Promise<SignInStart> {
      const c = await config();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(c, {
        redirect_uri: settings.redirectUri,
        scope: settings.scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        // Every sign-in asks for the credentials again: a shared desk must not inherit the last operator's session.
        prompt: 'login',
      });
      return { url: url.href, state, codeVerifier, nonce };
    },

    /** Exchanges the code the provider sent back (the whole callback URL) and reads who signed in. */
    async finish(callbackUrl: URL, expected: { state: string; codeVerifier: string; nonce: string }): Promise<SignInResult> {
      const c = await config();
      const tokens = await oidc.authorizationCodeGrant(c, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return { ok: false, reason: 'invalid' };
      if (settings.requireMfa && !hasSecondFactor(claims as { amr?: unknown; acr?: unknown }, settings.mfaAcrValues)) return { ok: false, reason: 'mfa' };
      const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name : typeof claims.preferred_username === 'string' ? claims.preferred_username : claims.sub;
      return { ok: true, subject: claims.sub, name, roles: rolesFrom(claims[settings.rolesClaim]), idToken: tokens.id_token };
    },

    /** The provider's end-session URL (RP-initiated logout), when it publishes one. */
    async endSessionUrl(idToken: string | undefined, postLogoutRedirectUri: string): Promise<string | null> {
      const c = await config().catch(() => null);
      if (!c?.serverMetadata().end_session_endpoint) return null;
      return oidc.buildEndSessionUrl(c, { post_logout_redirect_uri: postLogoutRedirectUri, ...(idToken ? { id_token_hint: idToken } : {}) }).href;
    },
  };
}

export type RelyingParty = ReturnType<typeof createRelyingParty>;
