/**
 * Google sign-in end to end against the embedded stand-in of Google's OAuth endpoints (packages/stand-ins,
 * src/google): the app's redirect, the consent page, the code exchange with PKCE, the ID token's check,
 * the new account and its one welcome mail; and the stand-in's refusals as Google words them.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../testing/http-client.ts";
import { uniqueEmail } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

/** Starts a Google sign-in as the browser would; answers the consent page's URL and its parameters. */
async function start(client: ApiClient) {
  const started = await client.post("/api/auth/sign-in/social", {
    provider: "google",
    callbackURL: "/projects",
  });
  expect(started.status).toBe(200);
  const url = new URL(started.body.url);
  return { url, params: Object.fromEntries(url.searchParams) };
}

/** Consents as `email` on the stand-in's page; answers where it sends the browser back. */
async function consent(url: URL, params: Record<string, string>, email: string, decision = "allow") {
  const answer = await fetch(
    url.origin + url.pathname,
    form({ ...params, email, name: "Gail Google", decision }),
  );
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("location")!);
}

async function signInWithGoogle(t: TestApp, email: string) {
  const client = new ApiClient(t.url);
  const { url, params } = await start(client);
  const back = await consent(url, params, email);
  const callback = await client.get(back.pathname + back.search);
  return { client, callback };
}

describe.each(routeDrivers())("Google sign-in through the stand-in (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver });
  });
  afterAll(() => t.close());

  it("sends the browser to the consent page with Google's parameters, PKCE included", async () => {
    const { url, params } = await start(new ApiClient(t.url));
    expect(url.toString().startsWith(`${t.url}/dev/google/o/oauth2/v2/auth?`)).toBe(true);
    expect(params).toMatchObject({
      response_type: "code",
      client_id: t.ctx.config.google!.clientId,
      redirect_uri: `${t.url}/api/auth/callback/google`,
      code_challenge_method: "S256",
    });
    expect(params.scope!.split(" ")).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Choose an account");
    expect(html).toContain('name="email"');
  });

  it("creates a verified account from Google's profile and welcomes it by mail exactly once", async () => {
    const address = uniqueEmail("google");
    const { client, callback } = await signInWithGoogle(t, address);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/projects");
    const me = (await client.get("/api/me")).body.data;
    expect(me).toMatchObject({
      email: address,
      emailVerified: true,
      signupSource: "google",
      displayName: "Gail Google",
    });

    const welcome = await t.inbox!.waitFor((m) => m.to.includes(address));
    expect(welcome.subject).toBe("Welcome to Redline");
    expect(welcome.link).toBe(`${t.url}/projects`);

    // Signing in again is the same account, and no second welcome.
    const again = await signInWithGoogle(t, address);
    expect(again.callback.status).toBe(302);
    expect((await again.client.get("/api/me")).body.data.uid).toBe(me.uid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(t.inbox!.mails.filter((m) => m.to.includes(address))).toHaveLength(1);
  });

  it("welcomes nobody twice even when asked again (welcome-user is idempotent)", async () => {
    const { sendWelcomeMail } = await import("./welcome.ts");
    const address = uniqueEmail("google-twice");
    const { client } = await signInWithGoogle(t, address);
    const uid = (await client.get("/api/me")).body.data.uid;
    await t.inbox!.waitFor((m) => m.to.includes(address));
    expect(await sendWelcomeMail(t.ctx.database.db, t.ctx.mailer, t.url, uid)).toBe(false);
  });

  it("gives an e-mail sign-up no welcome mail beside its verification mail", async () => {
    const address = uniqueEmail("email-signup");
    const client = new ApiClient(t.url);
    await client.post("/api/auth/sign-up/email", {
      email: address,
      password: "correct horse battery",
      name: "E",
    });
    await t.inbox!.waitFor((m) => m.to.includes(address));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(t.inbox!.mails.filter((m) => m.to.includes(address)).map((m) => m.subject)).toEqual([
      "Verify your e-mail for Redline",
    ]);
  });

  it("signs nobody in when the person cancels on Google's page", async () => {
    const client = new ApiClient(t.url);
    const { url, params } = await start(client);
    const back = await consent(url, params, uniqueEmail("cancel"), "deny");
    expect(back.searchParams.get("error")).toBe("access_denied");
    const callback = await client.get(back.pathname + back.search);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toContain("error=");
    expect(client.hasSession()).toBe(false);
  });

  it("refuses a forged code at the callback", async () => {
    const client = new ApiClient(t.url);
    const { params } = await start(client);
    const callback = await client.get(
      `/api/auth/callback/google?code=${encodeURIComponent("4/forged")}&state=${encodeURIComponent(params.state!)}`,
    );
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toContain("error=");
    expect(client.hasSession()).toBe(false);
  });

  it("refuses a callback whose state is not the one this browser started", async () => {
    const { url, params } = await start(new ApiClient(t.url));
    const back = await consent(url, params, uniqueEmail("state"));
    const otherBrowser = new ApiClient(t.url);
    const callback = await otherBrowser.get(back.pathname + back.search);
    expect(callback.headers.get("location")).toContain("error=");
    expect(otherBrowser.hasSession()).toBe(false);
  });

  describe("the stand-in's token endpoint, as Google answers", () => {
    const verifier = "v".repeat(50);
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const client = () => t.ctx.config.google!;
    const codeFor = async (email: string) => {
      const params = {
        client_id: client().clientId,
        redirect_uri: `${t.url}/api/auth/callback/google`,
        response_type: "code",
        scope: "openid email",
        state: "s",
        code_challenge: challenge,
        code_challenge_method: "S256",
      };
      const back = await consent(new URL(`${t.url}/dev/google/o/oauth2/v2/auth`), params, email);
      return back.searchParams.get("code")!;
    };
    const exchange = (fields: Record<string, string>) =>
      fetch(
        `${t.url}/dev/google/token`,
        form({
          grant_type: "authorization_code",
          client_id: client().clientId,
          client_secret: client().clientSecret,
          redirect_uri: `${t.url}/api/auth/callback/google`,
          code_verifier: verifier,
          ...fields,
        }),
      );

    it("answers tokens once per code, and userinfo for the access token", async () => {
      const code = await codeFor("once@example.com");
      const first = await exchange({ code });
      expect(first.status).toBe(200);
      const tokens = await first.json();
      expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3599 });
      const claims = JSON.parse(Buffer.from(tokens.id_token.split(".")[1], "base64url").toString());
      expect(claims).toMatchObject({
        iss: `${t.url}/dev/google`,
        aud: client().clientId,
        email: "once@example.com",
      });
      const info = await fetch(`${t.url}/dev/google/v1/userinfo`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(await info.json()).toMatchObject({
        email: "once@example.com",
        email_verified: true,
        sub: claims.sub,
      });
      const replay = await exchange({ code });
      expect(replay.status).toBe(400);
      expect((await replay.json()).error).toBe("invalid_grant");
    });

    it("refuses a wrong PKCE verifier, a wrong client secret and another redirect URI", async () => {
      expect(
        (
          await (
            await exchange({ code: await codeFor("a@example.com"), code_verifier: "w".repeat(50) })
          ).json()
        ).error,
      ).toBe("invalid_grant");
      const secret = await exchange({ code: await codeFor("b@example.com"), client_secret: "nope" });
      expect(secret.status).toBe(401);
      expect((await secret.json()).error).toBe("invalid_client");
      const redirect = await exchange({
        code: await codeFor("c@example.com"),
        redirect_uri: "http://evil.example/cb",
      });
      expect((await redirect.json()).error).toBe("redirect_uri_mismatch");
      const userinfo = await fetch(`${t.url}/dev/google/v1/userinfo`, {
        headers: { authorization: "Bearer forged" },
      });
      expect(userinfo.status).toBe(401);
    });

    it("shows no consent form to an unknown client or redirect URI", async () => {
      const page = await fetch(
        `${t.url}/dev/google/o/oauth2/v2/auth?client_id=evil&redirect_uri=${encodeURIComponent("http://evil.example/")}&response_type=code`,
      );
      expect(page.status).toBe(400);
      expect(await page.text()).not.toContain("<form");
    });
  });
});
