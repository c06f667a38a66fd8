/**
 * One sign-in on every host of the instance (issue #36 item 17b): the host a person leaves mints a one-time
 * code for a trusted origin; that host takes it once, signs the same person in there and goes on.
 */
import http from "node:http";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifications } from "../../db/schema/index.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

const BUGS = "http://bugs.example.test";

/** A GET as a browser on `host` sends it, redirects not followed. */
function getOn(base: string, host: string, path: string, cookie?: string) {
  return new Promise<{ status: number; location?: string; cookie?: string }>((resolve, reject) => {
    const url = new URL(path, base);
    const request = http.get(url, { headers: { host, ...(cookie ? { cookie } : {}) } }, (response) => {
      response.resume();
      resolve({
        status: response.statusCode ?? 0,
        location: response.headers.location,
        cookie: response.headers["set-cookie"]?.[0]?.split(";")[0],
      });
    });
    request.on("error", reject);
  });
}

describe.each(routeDrivers())("sign-in hand-off between hosts (%s)", (driver) => {
  let t: TestApp;
  let client: ApiClient;
  let uid: string;
  const mint = (body: unknown) => client.post("/api/session/handoff", body);
  const handoffPath = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { browse: { hostPrefix: "bugs", url: BUGS } } });
    client = await signUpVerified(t.url, t.inbox!, `handoff-${Date.now().toString(36)}@example.com`);
    uid = (await client.get("/api/me")).body.data.uid;
  });
  afterAll(() => t.close());

  it("signs the same person in on the bug-tracking host, once", async () => {
    const minted = await mint({ to: BUGS, next: "/projects?from=switcher" });
    expect(minted.status).toBe(200);
    const url = new URL(minted.body.data.url);
    expect(url.origin).toBe(BUGS);
    expect(url.pathname).toBe("/api/session/handoff");

    const taken = await getOn(t.url, "bugs.example.test", handoffPath(url.toString()));
    expect(taken.status).toBe(303);
    expect(taken.location).toBe("/projects?from=switcher");
    expect(taken.cookie).toBeTruthy();
    // The cookie the bugs host set is a session of the same person.
    const there = await getOn(t.url, "bugs.example.test", "/api/me", taken.cookie);
    expect(there.status).toBe(200);
    const me = await fetch(`${t.url}/api/me`, { headers: { cookie: taken.cookie! } });
    expect((await me.json()).data.uid).toBe(uid);

    // Used once: the same link again signs nobody in.
    const again = await getOn(t.url, "bugs.example.test", handoffPath(url.toString()));
    expect(again.status).toBe(303);
    expect(again.cookie).toBeUndefined();
  });

  it("works only on the host it was minted for, and only for a short while", async () => {
    const elsewhere = new URL((await mint({ to: BUGS })).body.data.url);
    const onOtherHost = await getOn(t.url, "other.example.test", handoffPath(elsewhere.toString()));
    expect(onOtherHost.cookie).toBeUndefined();

    const late = new URL((await mint({ to: BUGS })).body.data.url);
    await t.ctx.database.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verifications.identifier, "handoff:%"));
    const expired = await getOn(t.url, "bugs.example.test", handoffPath(late.toString()));
    expect(expired.status).toBe(303);
    expect(expired.cookie).toBeUndefined();
  });

  it("mints nothing for an origin that is not part of this instance, and never leads off the host", async () => {
    const count = async () =>
      (
        await t.ctx.database.db
          .select()
          .from(verifications)
          .where(like(verifications.identifier, "handoff:%"))
      ).length;
    const before = await count();
    const foreign = await mint({ to: "https://evil.example" });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe("That address is not part of this Redline.");
    expect(await count()).toBe(before);
    expect((await mint({ to: "not a url" })).status).toBe(400);

    const offsite = new URL((await mint({ to: BUGS, next: "//evil.example/projects" })).body.data.url);
    const taken = await getOn(t.url, "bugs.example.test", handoffPath(offsite.toString()));
    expect(taken.location).toBe("/projects");

    // Signed out, nothing is minted.
    expect((await new ApiClient(t.url).post("/api/session/handoff", { to: BUGS })).status).toBe(401);
  });
});
