/**
 * How long the widget's recorder may record (issue #33): the question to the server (`recordingLimit`) and
 * what it makes of each answer — the plan's seconds, none (0), and "no limit known" whenever the server
 * cannot say (the server still measures the video when it is attached).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WIDGET_VIDEO_LIMIT_PATH } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingLimit } from "./record.ts";

let server: Server;
let api = "";
const asked: string[] = [];
/** What the stand-in server answers next: a status and a body. */
let next: { status: number; body: string } = { status: 200, body: "" };

beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push(request.url ?? "");
    response.writeHead(next.status, { "content-type": "application/json" }).end(next.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const answer = (status: number, body: unknown) => {
  next = { status, body: typeof body === "string" ? body : JSON.stringify(body) };
};

describe("the recorder's limit", () => {
  it("asks the widget's server with the key and takes the plan's seconds", async () => {
    answer(200, { data: { limitSeconds: 60 } });
    expect(await recordingLimit(api, "key/with space")).toBe(60);
    expect(asked.at(-1)).toBe(`${WIDGET_VIDEO_LIMIT_PATH}?key=key%2Fwith%20space`);
    answer(200, { data: { limitSeconds: 0 } });
    expect(await recordingLimit(api, "k")).toBe(0);
    answer(200, { data: { limitSeconds: -1 } });
    expect(await recordingLimit(api, "k")).toBe(-1);
  });

  it("knows no limit when the server refuses, answers nonsense or cannot be reached", async () => {
    answer(403, { code: "origin-not-allowed" });
    expect(await recordingLimit(api, "k")).toBe(-1);
    answer(200, "not json");
    expect(await recordingLimit(api, "k")).toBe(-1);
    answer(200, { data: { limitSeconds: "60" } });
    expect(await recordingLimit(api, "k")).toBe(-1);
    answer(200, { data: { limitSeconds: -5 } });
    expect(await recordingLimit(api, "k")).toBe(-1);
    expect(await recordingLimit("http://127.0.0.1:1", "k")).toBe(-1);
  });
});
