import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

describe.each(drivers())("health and public config (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, smtp: false });
  });
  afterAll(() => t.close());

  it("reports the database driver in use", async () => {
    const health = await new ApiClient(t.url).get("/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok", database: driver });
  });

  it("says Google sign-in is off when no client id is configured", async () => {
    expect((await new ApiClient(t.url).get("/api/config")).body).toEqual({
      googleSignIn: false,
      mailbox: true,
    });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const missing = await new ApiClient(t.url).get("/api/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not-found");
  });
});
