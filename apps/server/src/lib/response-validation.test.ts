import { gzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { installResponseValidation } from "./response-validation.ts";
import { route } from "./routes.ts";

describe("response validation", () => {
  const app = Fastify();
  beforeAll(async () => {
    installResponseValidation(app);
    const response = z.strictObject({ data: z.strictObject({ count: z.number().int() }) });
    app.get("/kept", route({ summary: "keeps its word", action: "public", response }), async () => ({
      data: { count: 3 },
    }));
    app.get("/drifted", route({ summary: "drifts", action: "public", response }), async () => ({
      data: { count: "3", secret: "leaked" },
    }));
    app.get("/refused", route({ summary: "refuses", action: "public", response }), async (_r, reply) =>
      reply.status(404).send({ error: "Not Found" }),
    );
    // Kept answers go as bytes, encoded when the client accepts it (lib/revalidate.ts): checked all the same.
    const json = (body: unknown) => Buffer.from(JSON.stringify(body));
    app.get("/kept-bytes", route({ summary: "bytes", action: "public", response }), async (_r, reply) =>
      reply.type("application/json; charset=utf-8").send(json({ data: { count: 3 } })),
    );
    app.get("/drifted-gzip", route({ summary: "gzip", action: "public", response }), async (_r, reply) =>
      reply
        .type("application/json; charset=utf-8")
        .header("content-encoding", "gzip")
        .send(gzipSync(json({ data: { count: "3" } }))),
    );
    app.get("/undeclared", route({ summary: "says nothing", action: "public" }), async () => ({ any: 1 }));
    await app.ready();
  });
  afterAll(() => app.close());

  it("lets an answer that matches its schema through unchanged", async () => {
    const answer = await app.inject("/kept");
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ data: { count: 3 } });
  });

  it("turns an answer outside its schema (a wrong type, an extra field) into a 500 naming the route", async () => {
    const answer = await app.inject("/drifted");
    expect(answer.statusCode).toBe(500);
    expect(answer.body).toContain("GET /drifted answered outside its response schema");
  });

  it("checks an answer sent as bytes, and one sent compressed", async () => {
    expect((await app.inject("/kept-bytes")).json()).toEqual({ data: { count: 3 } });
    const drifted = await app.inject("/drifted-gzip");
    expect(drifted.statusCode).toBe(500);
    expect(drifted.body).toContain("GET /drifted-gzip answered outside its response schema");
  });

  it("checks neither refusals nor routes without a declared schema", async () => {
    expect((await app.inject("/refused")).statusCode).toBe(404);
    expect((await app.inject("/undeclared")).json()).toEqual({ any: 1 });
  });
});
