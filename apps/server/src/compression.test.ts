/**
 * Large JSON answers of any route go compressed to a client that accepts it (lib/revalidate.ts
 * compressLargeJson): here a person's list of 40 projects, read as a browser and as a script.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPRESS_JSON_FROM_BYTES } from "./lib/revalidate.ts";
import { type Person, signUpPerson } from "./testing/people.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

describe("large JSON answers", () => {
  let t: TestApp;
  let ada: Person;

  beforeAll(async () => {
    t = await startTestApp();
    ada = await signUpPerson(t, "ada", "Ada Lovelace");
    for (let i = 0; i < 40; i++) await ada.client.post("/api/projects", { title: `Project number ${i}` });
  });
  afterAll(() => t.close());

  const read = (path: string, acceptEncoding: string) =>
    ada.client.request("GET", path, undefined, { "accept-encoding": acceptEncoding });

  it("go brotli or gzip to a client that accepts it, as they are to one that does not", async () => {
    const plain = await read("/api/projects", "identity");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toMatch(/accept-encoding/i);
    const length = Number(plain.headers.get("content-length"));
    expect(length).toBeGreaterThanOrEqual(COMPRESS_JSON_FROM_BYTES);
    expect((plain.body as { data: unknown[] }).data).toHaveLength(40);

    const brotli = await read("/api/projects", "gzip, deflate, br, zstd");
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(Number(brotli.headers.get("content-length"))).toBeLessThan(length / 4);
    expect(brotli.body).toEqual(plain.body);

    const gzipped = await read("/api/projects", "gzip");
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.body).toEqual(plain.body);
  });

  it("leave small answers as they are", async () => {
    const me = await read("/api/me", "gzip, deflate, br");
    expect(me.status).toBe(200);
    expect(me.headers.get("content-encoding")).toBeNull();
  });
});
