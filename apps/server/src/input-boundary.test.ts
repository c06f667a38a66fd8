import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUnstorableText, jsonDepth, storableText } from "./lib/input-boundary.ts";
import { digest } from "./testing/db-digest.ts";
import { type ApiClient, signUpVerified } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";
import { routeDrivers } from "./testing/test-db.ts";

describe("input boundary rules", () => {
  it("counts JSON nesting without parsing, ignoring brackets inside strings", () => {
    expect(jsonDepth('{"a":[1,{"b":"]]]}}}"}]}')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    expect(jsonDepth("[".repeat(5000), 64)).toBe(65);
  });

  it("finds NUL and unpaired surrogates in keys and nested values, and keeps paired ones", () => {
    expect(findUnstorableText({ a: ["ok", { b: "x\u0000y" }] })).toBe("body.a.1.b");
    expect(findUnstorableText({ "k\uD800": 1 })).toBe("body (a key)");
    expect(findUnstorableText({ emoji: "👍 \uD83D\uDC4D" })).toBeNull();
    expect(findUnstorableText(["\uDC00"])).toBe("body.0");
    expect(storableText("a\u0000b\uD800c")).toBe("ab\uFFFDc");
  });
});

describe.each(routeDrivers())("malformed input is refused at the boundary (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let projectId: string;
  let versionId: string;

  beforeAll(async () => {
    t = await startTestApp({ driver, smtp: true });
    owner = await signUpVerified(t.url, t.inbox!, `boundary-${Date.now()}@example.com`);
    projectId = (await owner.post("/api/projects", { title: "Boundary" })).body.data.id;
    versionId = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/b" })).body
      .data.versionId;
  });
  afterAll(() => t.close());

  /** Sends a request and asserts its status, and that nothing stored changed. */
  const refused = async (status: number, send: () => Promise<{ status: number; body?: unknown }>) => {
    const before = await digest(t.ctx);
    const response = await send();
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(await digest(t.ctx)).toEqual(before);
    return response;
  };
  const raw = (method: string, path: string, body: string, contentType: string) =>
    fetch(`${t.url}${path}`, {
      method,
      body,
      headers: { "content-type": contentType, cookie: owner.cookieHeader(), origin: t.url },
    }).then(async (response) => ({ status: response.status, body: await response.text() }));

  it("answers 404 for a malformed id in the path, signed in or not", async () => {
    await refused(404, () => fetch(`${t.url}/api/share/%00`));
    await refused(404, () => owner.get("/api/projects/%00"));
    await refused(404, () => owner.get("/api/versions/a%20b/comments"));
    await refused(404, () => owner.patch("/api/pages/%E2%80%8B", { title: "x" }));
  });

  it("answers 400 for NUL or an unpaired surrogate in a body, a nested value or a query", async () => {
    const response = await refused(400, () => owner.post("/api/projects", { title: "a\u0000b" }));
    expect(response.body).toMatchObject({ code: "invalid-text" });
    await refused(400, () => owner.patch("/api/me", { displayName: "\uD800" }));
    await refused(400, () =>
      owner.post(`/api/versions/${versionId}/comments`, {
        comment: "Hello",
        dotPosition: { x: 0.5, y: 0.5 },
        deviceWidth: 1280,
        anchor: { querySelector: "body", text: "x\u0000" },
      }),
    );
    await refused(400, () => owner.get("/api/projects?q=%00"));
    await refused(400, () => owner.get("/api/notifications?projectId=a%00b"));
  });

  it("refuses JSON nested deeper than the bound, on our routes and better-auth's alike", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const auth = await refused(400, () => raw("POST", "/api/auth/sign-in/email", deep, "application/json"));
    expect(JSON.parse(auth.body as string)).toMatchObject({ code: "json-too-deep" });
    await refused(400, () => raw("POST", "/api/projects", `{"title":${deep}}`, "application/json"));
    await refused(400, () => raw("POST", "/api/projects", '{"title":', "application/json"));
    await refused(413, () =>
      raw(
        "POST",
        "/api/projects",
        JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }),
        "application/json",
      ),
    );
  });

  it("keeps integers inside their column's range", async () => {
    await refused(400, () => owner.patch(`/api/projects/${projectId}`, { sortOrder: 2 ** 31 }));
    await refused(400, () => owner.patch(`/api/projects/${projectId}`, { sortOrder: -(2 ** 31) - 1 }));
    expect((await owner.patch(`/api/projects/${projectId}`, { sortOrder: -(2 ** 31) })).status).toBe(200);
  });

  it("answers 400 for malformed multipart, and stores nothing", async () => {
    const path = `/api/projects/${projectId}/uploads`;
    const part = (boundary: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNGDATA\r\n--${boundary}--\r\n`;
    await refused(400, () => raw("POST", path, part("b1"), "multipart/form-data"));
    await refused(400, () => raw("POST", path, part("b1"), "multipart/form-data; boundary=other"));
    await refused(400, () => raw("POST", path, part("b1").slice(0, 60), "multipart/form-data; boundary=b1"));
  });
});
