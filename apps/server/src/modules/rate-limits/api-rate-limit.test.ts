import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, type ApiResponse, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

describe.each(routeDrivers())("API rate limits (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      driver,
      // trustProxy: the guests below come from different IPs through X-Forwarded-For.
      config: { apiRateLimit: 4, apiRateLimitExpensive: 2, trustProxy: true },
    });
  });
  afterAll(() => t.close());

  const expectLimited = (response: ApiResponse) => {
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.body).toMatchObject({ error: "Too Many Requests", code: "rate-limited" });
    expect((response.body as { message: string }).message).toMatch(/Try again/);
  };

  it("limits writes per signed-in user, and another user is not limited", async () => {
    const [ana, ben] = await Promise.all([
      signUpVerified(t.url, t.inbox!, `ana-${driver}@example.com`),
      signUpVerified(t.url, t.inbox!, `ben-${driver}@example.com`),
    ]);
    for (let i = 0; i < 4; i++)
      expect((await ana.post("/api/projects", { title: `P${i}` })).status).toBe(201);
    expectLimited(await ana.post("/api/projects", { title: "one too many" }));
    // Reads are not limited.
    expect((await ana.get("/api/projects")).status).toBe(200);

    const created = await ben.post("/api/projects", { title: "Ben's" });
    expect(created.status).toBe(201);
    const projectId = created.body.data.id as string;
    // Adding pages has its own, lower limit (2) while Ben is still within his 4 writes.
    const addPage = () => ben.post(`/api/projects/${projectId}/pages`, { url: "https://example.com" });
    expect((await addPage()).status).toBe(202);
    expect((await addPage()).status).toBe(202);
    expectLimited(await addPage());
  });

  it("limits anonymous callers per IP", async () => {
    const guest = (ip: string) => {
      const client = new ApiClient(t.url);
      return () => client.request("POST", "/api/share/nope/join", {}, { "x-forwarded-for": ip });
    };
    const first = guest("203.0.113.1");
    for (let i = 0; i < 4; i++) expect((await first()).status).not.toBe(429);
    expectLimited(await first());
    expect((await guest("203.0.113.2")()).status).not.toBe(429);
  });
});
