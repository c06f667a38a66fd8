/**
 * The S3 store refusing and timing out (issue #35): an upload then is answered 503 with Retry-After within
 * seconds, writes no row (no page or version pointing at a file the store does not have), and succeeds
 * when the client sends it again once the store answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniquePng } from "../testing/crash-round.ts";
import { cuttableProxy } from "../testing/cuttable-proxy.ts";
import { type ApiClient, signUpVerified } from "../testing/http-client.ts";
import { startS3Server } from "../testing/s3-server.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

describe("uploads while the S3 store refuses or does not answer", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    proxy = await cuttableProxy({ host: "127.0.0.1", port: s3.port });
    t = await startTestApp({
      allowServerErrors: true,
      config: { s3: { ...s3.options(proxy.port), timeoutsMs: { connection: 500, request: 1000 } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.cut();
    await s3.close();
  });

  const upload = async (owner: ApiClient, projectId: string, n: number) => {
    const started = Date.now();
    const response = await owner.upload(`/api/projects/${projectId}/uploads`, {
      name: `shot-${n}.png`,
      type: "image/png",
      bytes: await uniquePng(n),
    });
    return { ...response, ms: Date.now() - started };
  };
  const pages = async (owner: ApiClient, projectId: string) =>
    (await owner.get(`/api/projects/${projectId}`)).body.data.pages as { id: string }[];

  it("answers 503 with Retry-After, writes nothing, and takes the upload sent again once the store is back", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, `s3-outage-${Date.now()}@example.com`);
    const projectId = (await owner.post("/api/projects", { title: "Store outage" })).body.data.id as string;
    expect((await upload(owner, projectId, 1)).status).toBe(201);

    for (const fault of ["refused", "no answer"] as const) {
      await (fault === "refused" ? proxy.cut() : proxy.stall());
      const refused = await upload(owner, projectId, 2);
      expect({ fault, status: refused.status }).toEqual({ fault, status: 503 });
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(refused.body).toMatchObject({
        code: "unavailable",
        message: "The service is briefly unavailable. Try again in a few seconds.",
      });
      expect(refused.ms).toBeLessThan(10_000);
      expect(await pages(owner, projectId)).toHaveLength(1);
    }

    // The store answers again: the client sends the same upload again, and it is stored whole.
    await proxy.restore();
    const retried = await upload(owner, projectId, 2);
    expect(retried.status).toBe(201);
    expect(await pages(owner, projectId)).toHaveLength(2);
    const view = (await owner.get(`/api/versions/${retried.body.data.versionId}/view`)).body.data;
    const stored = Buffer.from(await (await fetch(view.contentUrl)).arrayBuffer());
    expect(stored).toEqual(await uniquePng(2));
  }, 60_000);
});
