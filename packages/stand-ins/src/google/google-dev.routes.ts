/**
 * The embedded Google sign-in stand-in (development and tests only; no GOOGLE_CLIENT_ID): Google's
 * OAuth 2.0 / OpenID Connect endpoints at Google's paths under one prefix — the authorization endpoint
 * (a consent page where one types the test account to sign in as), the token endpoint (authorization
 * code grant, client_secret_post or _basic, PKCE S256 or plain when the request carried a challenge),
 * userinfo, the JWKS and the discovery document. ID tokens are RS256 JWTs with Google's claims, signed
 * with a key made at start-up. Codes live in memory for ten minutes and work once, as Google's do.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { route } from "../route.ts";
import { isStorableText } from "../text.ts";
import { consentPage } from "./consent-page.ts";

export interface GoogleDevOptions {
  /** The app's public URL: the issuer is `${appUrl}${prefix}`. */
  appUrl: string;
  /** Registered by the app at start: the one client this stand-in knows. */
  client: { clientId: string; clientSecret: string; redirectUri: string };
  prefix?: string;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  scope: string;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: "S256" | "plain";
  account: { email: string; name: string };
  expiresAt: number;
}

const CODE_TTL_MS = 10 * 60_000;
const TOKEN_TTL_S = 3599;

const authorizeQuery = z.object({
  client_id: z.string().max(500),
  redirect_uri: z.string().max(2000),
  response_type: z.string().max(100),
  scope: z.string().max(1000).default("openid"),
  state: z.string().max(2000).optional(),
  nonce: z.string().max(500).optional(),
  code_challenge: z.string().min(43).max(128).optional(),
  code_challenge_method: z.enum(["S256", "plain"]).optional(),
  login_hint: z.string().max(320).optional(),
});

const consentBody = authorizeQuery.extend({
  email: z.string().trim().max(254).pipe(z.email()),
  name: z.string().trim().max(100).default(""),
  decision: z.enum(["allow", "deny"]),
});

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");
/** Google's subject: a stable number per account (here, per address). */
const subjectOf = (email: string) =>
  BigInt(`0x${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 15)}`).toString();

function signJwt(key: KeyObject, kid: string, claims: Record<string, unknown>) {
  const head = b64url(JSON.stringify({ alg: "RS256", kid, typ: "JWT" }));
  const body = b64url(JSON.stringify(claims));
  return `${head}.${body}.${b64url(sign("sha256", Buffer.from(`${head}.${body}`), key))}`;
}

/** An OAuth error the way Google's token endpoint answers it. */
const oauthError = (reply: FastifyReply, status: number, error: string, description: string) =>
  reply.status(status).send({ error, error_description: description });

export async function googleDevRoutes(app: FastifyInstance, options: GoogleDevOptions) {
  const prefix = options.prefix ?? "";
  const issuer = `${options.appUrl}${prefix}`;
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = b64url(randomBytes(12));
  const jwk = { ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, { email: string; name: string; expiresAt: number }>();

  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const clientProblem = (clientId: string, redirectUri: string) =>
    clientId !== options.client.clientId
      ? "The OAuth client was not found."
      : redirectUri !== options.client.redirectUri
        ? "redirect_uri_mismatch: the redirect URI in the request does not match the ones authorized for the OAuth client."
        : null;

  const claimsOf = (account: { email: string; name: string }) => ({
    sub: subjectOf(account.email),
    email: account.email,
    email_verified: true,
    name: account.name || account.email.split("@")[0],
    given_name: (account.name || account.email).split(/[\s@]/)[0],
  });

  app.get(
    "/.well-known/openid-configuration",
    route({ summary: "OpenID Connect discovery (embedded Google)", action: "public" }),
    async () => ({
      issuer,
      authorization_endpoint: `${issuer}/o/oauth2/v2/auth`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/v1/userinfo`,
      jwks_uri: `${issuer}/oauth2/v3/certs`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "profile"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      code_challenge_methods_supported: ["plain", "S256"],
      grant_types_supported: ["authorization_code"],
    }),
  );

  app.get(
    "/oauth2/v3/certs",
    route({ summary: "The ID tokens' signing keys (embedded Google)", action: "public" }),
    async () => ({ keys: [jwk] }),
  );

  app.get(
    "/o/oauth2/v2/auth",
    route({ summary: "Choose the test account to sign in as (embedded Google)", action: "public" }),
    async (request, reply) => {
      const query = authorizeQuery.safeParse(request.query);
      const problem = !query.success
        ? "The request is missing a required parameter or has one that is not valid."
        : query.data.response_type !== "code"
          ? "unsupported_response_type: only the authorization code flow is served."
          : clientProblem(query.data.client_id, query.data.redirect_uri);
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      if (problem || !query.success)
        return reply.status(400).send(consentPage({ action: "", error: problem }));
      return consentPage({
        action: `${prefix}/o/oauth2/v2/auth`,
        params: query.data as Record<string, string | undefined>,
        email: query.data.login_hint ?? "",
      });
    },
  );

  app.post(
    "/o/oauth2/v2/auth",
    route({ summary: "The test account's consent (embedded Google)", action: "public" }),
    async (request, reply) => {
      const body = consentBody.safeParse(request.body);
      reply.header("cache-control", "no-store");
      if (!body.success || !isStorableText(body.data.name)) {
        const query = authorizeQuery.safeParse(request.body);
        reply.type("text/html; charset=utf-8").status(400);
        return consentPage({
          action: `${prefix}/o/oauth2/v2/auth`,
          params: query.success ? (query.data as Record<string, string | undefined>) : undefined,
          error: "Enter the e-mail address of the test account to sign in as.",
        });
      }
      const input = body.data;
      const problem = clientProblem(input.client_id, input.redirect_uri);
      if (problem)
        return reply
          .type("text/html; charset=utf-8")
          .status(400)
          .send(consentPage({ action: "", error: problem }));
      const back = new URL(input.redirect_uri);
      if (input.state) back.searchParams.set("state", input.state);
      if (input.decision === "deny") {
        back.searchParams.set("error", "access_denied");
        return reply.redirect(back.toString(), 302);
      }
      const code = `4/${b64url(randomBytes(24))}`;
      grants.set(code, {
        clientId: input.client_id,
        redirectUri: input.redirect_uri,
        scope: input.scope,
        nonce: input.nonce ?? null,
        codeChallenge: input.code_challenge ?? null,
        codeChallengeMethod: input.code_challenge_method ?? "plain",
        account: { email: input.email.toLowerCase(), name: input.name },
        expiresAt: Date.now() + CODE_TTL_MS,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", input.scope);
      return reply.redirect(back.toString(), 302);
    },
  );

  app.post(
    "/token",
    route({ summary: "Exchange an authorization code for tokens (embedded Google)", action: "public" }),
    async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
      let clientId = text("client_id");
      let clientSecret = text("client_secret");
      const [scheme, encoded] = (request.headers.authorization ?? "").split(" ");
      if (scheme === "Basic" && encoded) {
        const [id, ...secret] = Buffer.from(encoded, "base64").toString("utf8").split(":");
        clientId = decodeURIComponent(id ?? "");
        clientSecret = decodeURIComponent(secret.join(":"));
      }
      if (clientId !== options.client.clientId || clientSecret !== options.client.clientSecret)
        return oauthError(reply, 401, "invalid_client", "Unauthorized");
      if (text("grant_type") !== "authorization_code")
        return oauthError(reply, 400, "unsupported_grant_type", `Invalid grant_type: ${text("grant_type")}`);
      const code = text("code");
      const grant = grants.get(code);
      grants.delete(code); // once, whatever follows
      if (!grant || grant.expiresAt < Date.now() || grant.clientId !== clientId)
        return oauthError(reply, 400, "invalid_grant", "Malformed auth code.");
      if (text("redirect_uri") !== grant.redirectUri)
        return oauthError(reply, 400, "redirect_uri_mismatch", "Bad Request");
      if (grant.codeChallenge) {
        const verifier = text("code_verifier");
        const computed =
          grant.codeChallengeMethod === "S256"
            ? b64url(createHash("sha256").update(verifier).digest())
            : verifier;
        if (!verifier || computed !== grant.codeChallenge)
          return oauthError(reply, 400, "invalid_grant", "Invalid code verifier.");
      }
      const now = Math.floor(Date.now() / 1000);
      const accessToken = `ya29.${b64url(randomBytes(32))}`;
      accessTokens.set(accessToken, { ...grant.account, expiresAt: Date.now() + TOKEN_TTL_S * 1000 });
      const idToken = signJwt(privateKey, kid, {
        iss: issuer,
        azp: clientId,
        aud: clientId,
        ...claimsOf(grant.account),
        ...(grant.nonce && { nonce: grant.nonce }),
        iat: now,
        exp: now + TOKEN_TTL_S,
      });
      reply.header("cache-control", "no-store");
      return {
        access_token: accessToken,
        expires_in: TOKEN_TTL_S,
        scope: grant.scope,
        token_type: "Bearer",
        id_token: idToken,
      };
    },
  );

  app.get(
    "/v1/userinfo",
    route({ summary: "The signed-in test account (embedded Google)", action: "public" }),
    async (request, reply) => {
      const [scheme, token] = (request.headers.authorization ?? "").split(" ");
      const held = scheme === "Bearer" && token ? accessTokens.get(token) : undefined;
      if (!held || held.expiresAt < Date.now())
        return reply
          .status(401)
          .header("www-authenticate", 'Bearer error="invalid_token"')
          .send({ error: "invalid_request", error_description: "Invalid Credentials" });
      return claimsOf(held);
    },
  );
}
