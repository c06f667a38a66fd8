import { REVIEW_REQUEST_MESSAGES, REVIEW_REQUESTS_PER_IP_PER_HOUR } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { settledGet, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe.each(routeDrivers())("review requests (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let ownerEmail: string;
  let member: ApiClient;
  let projectId: string;

  const visitor = (ip = "198.51.100.7") => {
    const client = new ApiClient(t.url);
    return (body: unknown) => client.request("POST", "/api/review-requests", body, { "x-forwarded-for": ip });
  };
  const request = (overrides: Record<string, unknown> = {}) => ({
    projectId,
    name: "Rita Reviewer",
    email: "rita@example.com",
    url: "https://rita.example/pricing",
    message: "Could you look at the new pricing table?",
    ...overrides,
  });
  const notificationsOf = async (client: ApiClient) =>
    (await settledGet(t, client, "/api/notifications")).body.data as {
      type: string;
      actor: { displayName: string };
      context: { reviewUrl?: string; email?: string };
    }[];

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { trustProxy: true } });
    ownerEmail = email("owner");
    owner = await signUpVerified(t.url, t.inbox!, ownerEmail, undefined, "Olive Owner");
    projectId = (await owner.post("/api/projects", { title: "Landing" })).body.data.id as string;
    const memberEmail = email("member");
    member = await signUpVerified(t.url, t.inbox!, memberEmail);
    expect(
      (await owner.post(`/api/projects/${projectId}/members`, { email: memberEmail, access: "edit" })).status,
    ).toBeLessThan(300);
  });
  afterAll(() => t.close());

  it("names the owner a review link reaches, and refuses a link to nothing", async () => {
    const anyone = new ApiClient(t.url);
    const target = await anyone.get(`/api/review-requests/target?project=${projectId}`);
    expect(target.status).toBe(200);
    expect(target.body.data).toEqual({ ownerName: "Olive Owner" });
    for (const project of ["nope", "demo"]) {
      const missing = await anyone.get(`/api/review-requests/target?project=${project}`);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(REVIEW_REQUEST_MESSAGES.invalidLink);
    }
    const malformed = await anyone.get("/api/review-requests/target?project=%3Cscript%3E");
    expect(malformed.status).toBe(400);
  });

  it("tells the owner alone, in the app and by mail, with the visitor as Reply-To", async () => {
    const sent = await visitor()(request());
    expect(sent.status).toBe(201);
    expect(sent.body.message).toBe(REVIEW_REQUEST_MESSAGES.sent);

    const [notification] = await notificationsOf(owner);
    expect(notification).toMatchObject({
      type: "review-request",
      actor: { displayName: "Rita Reviewer" },
      context: { reviewUrl: "https://rita.example/pricing", email: "rita@example.com" },
    });
    // The project's other people are not asked.
    expect((await notificationsOf(member)).some((n) => n.type === "review-request")).toBe(false);

    const mail = await t.inbox!.waitFor((m) => m.subject === "Rita Reviewer asked you to review a page");
    expect(mail.to).toEqual([ownerEmail]);
    expect(mail.headers["reply-to"]).toContain("rita@example.com");
    expect(mail.text).toContain("https://rita.example/pricing");
    expect(mail.text).toContain("Could you look at the new pricing table?");
    // Never to the address the visitor typed.
    expect(t.inbox!.mails.some((m) => m.to.includes("rita@example.com"))).toBe(false);
  });

  it("refuses bad input with a sentence, and changes nothing", async () => {
    const before = (await notificationsOf(owner)).length;
    const mailsBefore = t.inbox!.mails.length;
    const send = visitor("198.51.100.8");
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [request({ name: " " }), 400, /Write your name\./],
      [request({ email: "not-an-address" }), 400, /valid e-mail/],
      [request({ url: "javascript:alert(1)" }), 400, /https:\/\//],
      [request({ name: "Rita\r\nBcc: all@example.com" }), 400, /one line/],
      [request({ message: "x".repeat(5000) }), 400, /./],
      [request({ extra: true }), 400, /./],
      [request({ projectId: "missing" }), 404, /not valid/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await send(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.body.message).toMatch(message);
    }
    expect((await notificationsOf(owner)).length).toBe(before);
    expect(t.inbox!.mails.length).toBe(mailsBefore);
  });

  it("limits one visitor's requests on a link, not another visitor's", async () => {
    const send = visitor("198.51.100.9");
    for (let i = 0; i < REVIEW_REQUESTS_PER_IP_PER_HOUR; i++)
      expect((await send(request())).status).toBe(201);
    const refused = await send(request());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/Too many review requests/);
    expect((await visitor("198.51.100.10")(request())).status).toBe(201);
  });
});
