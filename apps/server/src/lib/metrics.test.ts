import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../env.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { routeDrivers } from "../testing/test-db.ts";

const TOKEN = "metrics-token-0123456789abcdef";

function scrape(t: TestApp, headers: Record<string, string> = {}) {
  return fetch(`${t.url}/metrics`, { headers });
}

describe("/metrics is off unless configured", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ smtp: false });
  });
  afterAll(() => t.close());

  it("is not served (404, not the web app) with neither METRICS_TOKEN nor METRICS_ALLOW_LOOPBACK", async () => {
    const response = await scrape(t, { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe("not-found");
  });
});

describe.each(routeDrivers())("/metrics with METRICS_TOKEN (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      driver,
      smtp: false,
      config: { metrics: { token: TOKEN, allowLoopback: false } },
    });
  });
  afterAll(() => t.close());

  it("refuses a scrape without the token or with a wrong one (401), even from loopback", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-token-0123456789abcdef" },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const response = await scrape(t, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect((await response.json()).message).toBe("Metrics need the bearer token set in METRICS_TOKEN.");
    }
  });

  it("counts and times requests per route pattern, never per raw URL", async () => {
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    for (let i = 0; i < 3; i++) await fetch(`${t.url}/api/projects/${id}`);
    await fetch(`${t.url}/no/such/${id}`, { method: "POST" });
    const response = await scrape(t, { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const counted =
      /^redline_http_requests_total\{method="GET",route="\/api\/projects\/:projectId",status_code="(\d+)"\} 3$/m;
    expect(text).toMatch(counted);
    expect(text).toMatch(
      /^redline_http_request_duration_seconds_count\{method="GET",route="\/api\/projects\/:projectId",status_code="\d+"\} 3$/m,
    );
    expect(text).toMatch(
      /^redline_http_requests_total\{method="POST",route="\(unmatched\)",status_code="404"\} 1$/m,
    );
    expect(text).not.toContain(id);
  });

  it("reports the queue's jobs, the capture queue, the mail outbox, WebSockets and the process", async () => {
    await t.ctx.mailer.send({ to: "someone@example.com", subject: "Hello", text: "Hi" });
    const text = await (await scrape(t, { authorization: `Bearer ${TOKEN}` })).text();
    expect(text).toMatch(/^redline_jobs\{queue="[^"]+",state="[a-z]+"\} \d+$/m);
    expect(text).toMatch(/^redline_capture_queue_depth \d+$/m);
    expect(text).toMatch(/^redline_mail_outbox_backlog \d+$/m);
    expect(text).toMatch(/^redline_websocket_connections 0$/m);
    expect(text).toMatch(/^redline_process_resident_memory_bytes \d+/m);
    expect(text).toContain("# TYPE redline_capture_duration_seconds histogram");
    if (driver === "postgres") expect(text).toMatch(/^redline_db_pool_connections\{state="total"\} \d+$/m);
    else expect(text).not.toContain("redline_db_pool_connections");
  });
});

describe("/metrics with METRICS_ALLOW_LOOPBACK", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ smtp: false, config: { metrics: { token: null, allowLoopback: true } } });
  });
  afterAll(() => t.close());

  it("serves a direct connection from this machine without a token", async () => {
    const response = await scrape(t);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("# TYPE redline_http_requests_total counter");
  });

  it("refuses a request a local reverse proxy forwards (it comes from anywhere)", async () => {
    expect((await scrape(t, { "x-forwarded-for": "203.0.113.9" })).status).toBe(401);
    expect((await scrape(t, { forwarded: "for=203.0.113.9" })).status).toBe(401);
  });
});

describe("metrics settings", () => {
  it("are off by default, and a short METRICS_TOKEN stops start-up with a message naming it", () => {
    expect(loadConfig({}).metrics).toEqual({ token: null, allowLoopback: false });
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(
      "METRICS_TOKEN: METRICS_TOKEN must be at least 16 characters",
    );
    expect(() => loadConfig({ METRICS_ALLOW_LOOPBACK: "yes" })).toThrow("METRICS_ALLOW_LOOPBACK");
    expect(loadConfig({ METRICS_ALLOW_LOOPBACK: "true" }).metrics.allowLoopback).toBe(true);
  });
});
