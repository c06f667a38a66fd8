import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";

describe("the embedded outbox", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ smtp: false });
  });
  afterAll(() => t.close());

  it("keeps every mail when no SMTP server is configured, newest first", async () => {
    const client = new ApiClient(t.url);
    await client.post("/api/auth/sign-up/email", {
      email: "first@example.com",
      password: "long enough pw",
      name: "A",
    });
    // Mail is delivered out of the request (the durable outbox), so the first one is in before the second.
    await expect.poll(async () => (await client.get("/api/dev/mailbox")).body.data.length).toBe(1);
    await client.post("/api/auth/request-password-reset", { email: "first@example.com", redirectTo: "/" });
    await expect.poll(async () => (await client.get("/api/dev/mailbox")).body.data.length).toBe(2);
    const mailbox = await client.get("/api/dev/mailbox");
    expect(mailbox.status).toBe(200);
    expect(mailbox.body.data.map((m: { subject: string }) => m.subject)).toEqual([
      "Reset your Redline password",
      "Verify your e-mail for Redline",
    ]);
    expect(mailbox.body.data[1].text).toContain(`${t.url}/user-action?mode=verifyEmail&oobCode=`);
  });
});

describe("the outbox in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ smtp: false, config: { isProduction: true } });
  });
  afterAll(() => t.close());

  it("does not exist", async () => {
    expect((await new ApiClient(t.url).get("/api/dev/mailbox")).status).toBe(404);
    expect((await new ApiClient(t.url).get("/api/config")).body.mailbox).toBe(false);
  });
});
