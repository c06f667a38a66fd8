/**
 * Google sign-in (ADR 0032): Google's OpenID Connect code flow with PKCE, through better-auth's generic
 * OAuth plugin under the provider id `google` (so `signIn.social({ provider: "google" })` and
 * `/api/auth/callback/google` stay as they were). Its endpoints are Google's, or the same paths on
 * GOOGLE_OAUTH_BASE_URL, or on the embedded stand-in (packages/stand-ins/src/google) — one code path,
 * tried end to end. The ID token from the token endpoint is verified as Google documents it: signature
 * against the JWKS, issuer, audience (our client id), expiry, at most an hour old.
 */
import type { GenericOAuthConfig } from "better-auth/plugins";
import { createRemoteJWKSet, jwtVerify } from "jose";
import type { AppConfig, GoogleConfig } from "../../env.ts";
import { selfUrl } from "../../lib/self-url.ts";

export interface GoogleEndpoints {
  /** Where the browser is sent to choose an account. */
  authorization: string;
  token: string;
  userinfo: string;
  jwks: string;
  issuer: string[];
}

/** Google's documented endpoints (https://accounts.google.com/.well-known/openid-configuration). */
const GOOGLE: GoogleEndpoints = {
  authorization: "https://accounts.google.com/o/oauth2/v2/auth",
  token: "https://oauth2.googleapis.com/token",
  userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
  jwks: "https://www.googleapis.com/oauth2/v3/certs",
  issuer: ["https://accounts.google.com", "accounts.google.com"],
};

/** The path under which the app serves the embedded Google stand-in. */
export const EMBEDDED_GOOGLE_PATH = "/dev/google";

/** Google's paths on another host: the browser and the server reach it at the same address. */
function onHost(browserBase: string, serverBase: string): GoogleEndpoints {
  return {
    authorization: `${browserBase}/o/oauth2/v2/auth`,
    token: `${serverBase}/token`,
    userinfo: `${serverBase}/v1/userinfo`,
    jwks: `${serverBase}/oauth2/v3/certs`,
    issuer: [browserBase],
  };
}

export function googleEndpoints(config: Pick<AppConfig, "appUrl" | "host" | "port">, google: GoogleConfig) {
  if (google.embedded)
    // The browser goes to the app's public address; the server calls itself (APP_URL may be a proxy).
    return onHost(`${config.appUrl}${EMBEDDED_GOOGLE_PATH}`, `${selfUrl(config)}${EMBEDDED_GOOGLE_PATH}`);
  if (google.baseUrl) return onHost(google.baseUrl, google.baseUrl);
  return GOOGLE;
}

/** Google's ID token claims the app reads. */
interface GoogleClaims {
  sub: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  picture?: string;
}

/** The generic OAuth plugin's configuration for Google with these endpoints. */
export function googleOAuthConfig(
  config: Pick<AppConfig, "appUrl" | "host" | "port">,
  google: GoogleConfig,
): GenericOAuthConfig {
  const endpoints = googleEndpoints(config, google);
  const keys = createRemoteJWKSet(new URL(endpoints.jwks));
  return {
    providerId: "google",
    name: "Google",
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    authorizationUrl: endpoints.authorization,
    tokenUrl: endpoints.token,
    userInfoUrl: endpoints.userinfo,
    scopes: ["openid", "email", "profile"],
    pkce: true,
    authentication: "post",
    async getUserInfo(tokens) {
      if (!tokens.idToken) return null;
      try {
        const { payload } = await jwtVerify<GoogleClaims>(tokens.idToken, keys, {
          issuer: endpoints.issuer,
          audience: google.clientId,
          algorithms: ["RS256"],
          maxTokenAge: "1h",
        });
        if (!payload.sub || !payload.email) return null;
        return {
          id: payload.sub,
          email: payload.email,
          emailVerified: payload.email_verified === true || payload.email_verified === "true",
          name: payload.name ?? "",
          image: payload.picture,
        };
      } catch {
        return null;
      }
    },
  };
}
