/**
 * The API client under a briefly unavailable server (#35): a read or an upload answered 503 is sent again
 * after the server's Retry-After, up to three times; other writes are not repeated; the error the person
 * finally sees is written for people.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, isApiError, retryDelayMs, UNAVAILABLE_RETRIES } from "./api.ts";

const unavailable = () =>
  new Response(
    JSON.stringify({
      error: "Service Unavailable",
      code: "unavailable",
      message: "The service is briefly unavailable. Try again in a few seconds.",
    }),
    { status: 503, headers: { "content-type": "application/json", "retry-after": "5" } },
  );
const ok = () => new Response(JSON.stringify({ data: { id: "f1" } }), { status: 201 });

let answers: (() => Response)[] = [];
const calls: { method: string; body: unknown }[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  calls.length = 0;
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
    calls.push({ method: init.method ?? "GET", body: init.body });
    return (answers.shift() ?? ok)();
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the API client and a briefly unavailable server", () => {
  it("sends an upload again after Retry-After until it is stored", async () => {
    answers = [unavailable, unavailable, ok];
    const form = new FormData();
    form.append("file", new Blob(["x"]), "a.png");
    const sent = api<{ data: { id: string } }>("/api/projects/p1/uploads", { method: "POST", body: form });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await sent).data.id).toBe("f1");
    expect(calls).toHaveLength(3);
    expect(calls.every((call) => call.body === form)).toBe(true);
  });

  it("gives up after three more tries with the server's message", async () => {
    answers = Array.from({ length: UNAVAILABLE_RETRIES + 1 }, () => unavailable);
    const read = api("/api/projects").catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    const error = await read;
    expect(isApiError(error) && error.status).toBe(503);
    expect((error as Error).message).toBe("The service is briefly unavailable. Try again in a few seconds.");
    expect(calls).toHaveLength(UNAVAILABLE_RETRIES + 1);
  });

  it("does not repeat a JSON write on its own", async () => {
    answers = [unavailable];
    const write = api("/api/projects", { method: "POST", body: { title: "A" } }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(isApiError(await write)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("waits as the server says, at most 10 s, else 1, 2, 4 s", () => {
    expect(retryDelayMs("5", 0)).toBe(5000);
    expect(retryDelayMs("120", 0)).toBe(10_000);
    expect(retryDelayMs(null, 0)).toBe(1000);
    expect(retryDelayMs("soon", 2)).toBe(4000);
  });
});
