import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** The app's JSON log lines, as an operator's log shipper would read them. */
function logCollector() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

describe("request ids", () => {
  let t: TestApp;
  const logs = logCollector();
  beforeAll(async () => {
    t = await startTestApp({ smtp: false, config: { logLevel: "info", logStream: logs.stream } });
  });
  afterAll(() => t.close());

  it("keeps a caller's safe X-Request-Id, echoes it, and puts it on every log line of the request", async () => {
    const response = await fetch(`${t.url}/api/config`, { headers: { "x-request-id": "lb-7f3a.92:c" } });
    expect(response.headers.get("x-request-id")).toBe("lb-7f3a.92:c");
    const ofRequest = logs.lines.filter((line) => line.reqId === "lb-7f3a.92:c");
    expect(ofRequest.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
    expect(ofRequest[1]).toMatchObject({ res: { statusCode: 200 } });
  });

  it("gives a request without one, or with an unsafe or overlong one, a new id of its own", async () => {
    const seen = new Set<string>();
    for (const given of [undefined, "a b", "x".repeat(65), "<script>", "id\u00e9"]) {
      const response = await fetch(`${t.url}/health/live`, {
        headers: given === undefined ? {} : { "x-request-id": given },
      });
      const id = response.headers.get("x-request-id")!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen.has(id)).toBe(false);
      seen.add(id);
      expect(logs.lines.filter((line) => line.reqId === id)).toHaveLength(2);
    }
  });

  it("answers an error with the id too, and logs it on the error's lines", async () => {
    const response = await fetch(`${t.url}/api/projects`, { headers: { "x-request-id": "err-1" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("x-request-id")).toBe("err-1");
    expect(logs.lines.filter((line) => line.reqId === "err-1").length).toBeGreaterThanOrEqual(2);
  });
});
