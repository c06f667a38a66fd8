import { writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema/index.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { routeIt } from "../../testing/route-it.ts";
import { setLimits, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

async function pngDataUrl(width: number, height: number): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

describe.each(drivers())("the user's own record (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());

  routeIt(driver)("answers 401 when signed out", async () => {
    const me = await new ApiClient(t.url).get("/api/me");
    expect(me.status).toBe(401);
    expect(me.body.code).toBe("unauthenticated");
  });

  routeIt(driver)("updates only the fields provided", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("patch"));
    const first = await client.patch("/api/me", { displayName: "Grace Hopper" });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe("Profile updated.");
    const second = await client.patch("/api/me", {
      notificationSound: false,
      emailPreferences: { marketing: false },
    });
    expect(second.body.data).toMatchObject({ displayName: "Grace Hopper", notificationSound: false });
    expect(second.body.data.emailPreferences).toMatchObject({
      marketing: false,
      comments: true,
      mentions: true,
    });
  });

  routeIt(driver)("rejects bad input with 400 and changes nothing", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("invalid"), undefined, "Original");
    for (const body of [
      { displayName: "" },
      { notificationSound: "yes" },
      { emailPreferences: { notAFlag: true } },
      { isDeleted: true },
      { limits: { web: { projects: -1, pages: -1 } } },
      { displayName: "Ok", privilege: "team" },
    ]) {
      const response = await client.patch("/api/me", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("validation");
    }
    const me = (await client.get("/api/me")).body.data;
    expect(me.displayName).toBe("Original");
    expect(me.notificationSound).toBe(true);
    expect(me.limits.web.projects).toBe(1);
    expect(me.privilege).toBeNull();
  });

  routeIt(driver)(
    "says what the user's plans allow per product: free at first, then what a privilege or lifetime deal grants",
    async () => {
      const client = await signUpVerified(t.url, t.inbox!, email("plans"));
      const me = (await client.get("/api/me")).body.data;
      expect(me.plans.web).toMatchObject({ name: "Free", isFree: true, hideUpsells: false });
      expect(me.plans.web.entitlements).toMatchObject({ projects: 1, pages: 5, collaborators: 5 });
      expect(me.plans.browse.entitlements).toMatchObject({ projects: 2, tickets: 20 });

      await t.ctx.database.db
        .update(users)
        .set({ lifetimeDeal: { isDisabled: false, invoices: [{ plan: "redline_tier2" }] } })
        .where(eq(users.id, me.uid));
      // Written outside a request: the session cache hears of it as the database announces it (ADR 0007).
      await expect.poll(async () => (await client.get("/api/me")).body.data.plans.web.isFree).toBe(false);
      const lifetime = (await client.get("/api/me")).body.data.plans;
      expect(lifetime.web).toMatchObject({ name: "Lifetime tier 2", isFree: false, hideUpsells: true });
      expect(lifetime.web.entitlements).toMatchObject({ projects: -1, collaborators: 5 });
      expect(lifetime.browse.isFree).toBe(true); // lifetime deals are for the web product

      await t.ctx.database.db.update(users).set({ privilege: "team" }).where(eq(users.id, me.uid));
      await expect.poll(async () => (await client.get("/api/me")).body.data.plans.browse.name).toBe("Team");
      const privileged = (await client.get("/api/me")).body.data.plans;
      expect(privileged.browse).toMatchObject({ name: "Team", hideUpsells: true });
    },
  );

  it("counts the user's projects, their pages, shares and editors (SPEC §3 counters)", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("counters"));
    await setLimits(t, client, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
    expect((await client.get("/api/me")).body.data.counters).toEqual({
      projectsCount: 0,
      projectPagesCount: 0,
      projectShareCount: 0,
      projectEditorsCount: 0,
      projectsEditors: 0,
    });
    const a = (await client.post("/api/projects", { type: "web", title: "A" })).body.data.id;
    const b = (await client.post("/api/projects", { type: "web", title: "B" })).body.data.id;
    for (const url of ["https://example.com/1", "https://example.com/2"])
      expect((await client.post(`/api/projects/${a}/pages`, { url })).status).toBe(202);
    expect((await client.post(`/api/projects/${b}/pages`, { url: "https://example.com/3" })).status).toBe(
      202,
    );
    const editor = email("editor");
    await client.post(`/api/projects/${a}/members`, { email: editor, access: "edit" });
    await client.post(`/api/projects/${b}/members`, { email: editor, access: "edit" });
    await client.post(`/api/projects/${b}/members`, { email: email("commenter"), access: "comment" });
    expect((await client.get("/api/me")).body.data.counters).toEqual({
      projectsCount: 2,
      projectPagesCount: 3,
      projectShareCount: 3,
      projectEditorsCount: 2,
      projectsEditors: 1,
    });
  });

  it("keeps both of two concurrent preference changes", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("concurrent"));
    const flags = ["comments", "mentions", "edits", "marketing", "pagesApproved", "pagesUnapproved"] as const;
    await Promise.all(flags.map((flag) => client.patch("/api/me", { emailPreferences: { [flag]: false } })));
    const prefs = (await client.get("/api/me")).body.data.emailPreferences;
    for (const flag of flags) expect(prefs[flag], flag).toBe(false);
    expect(prefs.commentResolve).toBe(true);
  });

  routeIt(driver)(
    "keeps each first-minutes screen's flag once set, merged with the others; an unknown flag is 400",
    async () => {
      const client = await signUpVerified(t.url, t.inbox!, email("onboarding"));
      expect((await client.get("/api/me")).body.data.onboarding).toEqual({});
      const flags = ["profileSetup", "featureTour", "introduceProductSplitting", "demoModal"] as const;
      await Promise.all(flags.map((flag) => client.patch("/api/me", { onboarding: { [flag]: true } })));
      const refused = await client.patch("/api/me", { onboarding: { tourAgain: true } });
      expect(refused.status).toBe(400);
      expect((await client.patch("/api/me", { onboarding: { featureTour: false } })).status).toBe(400);
      expect((await client.get("/api/me")).body.data.onboarding).toEqual({
        profileSetup: true,
        featureTour: true,
        introduceProductSplitting: true,
        demoModal: true,
      });
    },
  );

  routeIt(driver)("uploads a photo as a 500×500 JPEG and serves it", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("photo"));
    const upload = await client.post("/api/me/photo", { dataUrl: await pngDataUrl(800, 600) });
    expect(upload.status).toBe(200);
    const photoURL: string = upload.body.data.photoURL;
    expect(photoURL).toMatch(/^\/files\/avatars\/.+\.jpg$/);

    const file = await fetch(t.url + photoURL);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    expect(file.headers.get("cache-control")).toBe("private, max-age=31536000");
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 500, 500]);

    await client.patch("/api/me", { photoURL });
    expect((await client.get("/api/me")).body.data.photoURL).toBe(photoURL);
  });

  routeIt(driver)("refuses photos over 5 MB, non-images and anonymous uploads", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("bigphoto"));
    const big = `data:image/png;base64,${Buffer.alloc(5 * 1024 * 1024 + 10, 7).toString("base64")}`;
    const tooBig = await client.post("/api/me/photo", { dataUrl: big });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe("Max file size is 5 MB.");

    const notImage = await client.post("/api/me/photo", {
      dataUrl: `data:image/png;base64,${Buffer.from("<script>alert(1)</script>").toString("base64")}`,
    });
    expect(notImage.status).toBe(400);
    expect(notImage.body.code).toBe("invalid-image");

    const anonymous = await new ApiClient(t.url).post("/api/me/photo", { dataUrl: await pngDataUrl(10, 10) });
    expect(anonymous.status).toBe(401);
  });

  routeIt(driver)("does not serve paths outside the storage root", async () => {
    const secret = t.ctx.config.authSecret;
    // Raw requests: fetch() would normalise the dot segments before they reach the server.
    const rawGet = (requestPath: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.get(`${t.url}/`, { path: requestPath }, (response) => {
          let body = "";
          response.on("data", (chunk) => {
            body += chunk;
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on("error", reject);
      });
    await writeFile(path.join(t.ctx.config.filesDir, "..", "auth-secret"), secret);
    for (const attempt of [
      "/files/../auth-secret",
      "/files/avatars/../../auth-secret",
      "/files/avatars/%2e%2e/%2e%2e/auth-secret.png",
      "/files/avatars/..%2f..%2fauth-secret.png",
      "/files/avatars/x.txt",
    ]) {
      const response = await rawGet(attempt);
      expect(response.body, attempt).not.toContain(secret);
      if (attempt.startsWith("/files/avatars/")) expect(response.status, attempt).toBe(404);
    }
  });
});

describe("a self-hosted instance with plans switched off", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver: "pglite", config: { plansEnabled: false } });
  });
  afterAll(() => t.close());

  it("gives every user everything, with no upsell", async () => {
    const client = await signUpVerified(t.url, t.inbox!, email("plans-off"));
    const { plans } = (await client.get("/api/me")).body.data;
    for (const product of ["web", "browse"]) {
      expect(plans[product]).toMatchObject({ name: "Unlimited", isFree: false, hideUpsells: true });
      expect(plans[product].entitlements).toMatchObject({ projects: -1, pages: -1, collaborators: -1 });
    }
  });
});
