/**
 * Contact Us and plan requests reach the installation's support address, kept in the database and mailed
 * with the sender to reply to; blank or malformed messages are refused and change nothing.
 */
import { SUPPORT_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supportMessages } from "../../db/schema/index.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

const SUPPORT = "help@redline.example";

describe.each(routeDrivers())("support messages (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { supportEmail: SUPPORT } });
    ada = await signUpPerson(t, "ada", "Ada Lovelace");
  });
  afterAll(() => t.close());

  it("delivers Contact Us to the support address with the sender to reply to, and keeps it", async () => {
    const sent = await ada.client.post("/api/support/contact", {
      subject: "Invoices",
      message: "Where do I find last month's invoice?",
    });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toBe(SUPPORT_MESSAGES.contactSent);
    const mail = await t.inbox!.waitFor((m) => m.to.includes(SUPPORT) && m.subject.includes("Invoices"));
    expect(mail.subject).toBe("[Redline] Contact Us: Invoices");
    expect(mail.text).toContain(`Ada Lovelace <${ada.address}>`);
    expect(mail.text).toContain("Where do I find last month's invoice?");
    expect(mail.headers["reply-to"]).toContain(ada.address);
    const [row] = await t.ctx.database.db
      .select()
      .from(supportMessages)
      .where(eq(supportMessages.userId, ada.uid));
    expect(row).toMatchObject({ kind: "contact", email: ada.address, subject: "Invoices" });
  });

  it("delivers a plan request with the company and team size", async () => {
    const sent = await ada.client.post("/api/support/pro-request", {
      company: "Analytical Engines",
      teamSize: 12,
      message: "We would like a relationship manager.",
    });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toBe(SUPPORT_MESSAGES.requestSent);
    const mail = await t.inbox!.waitFor((m) => m.subject.includes("Analytical Engines"));
    expect(mail.subject).toBe("[Redline] Plan request: Plan request from Analytical Engines");
    expect(mail.text).toContain("teamSize: 12");
  });

  it("refuses a blank message, a malformed body and a visitor without a session, storing nothing", async () => {
    await expectRefused(
      t,
      () => ada.client.post("/api/support/contact", { subject: "Hi", message: "   " }),
      400,
    );
    await expectRefused(
      t,
      () => ada.client.post("/api/support/contact", { subject: "Hi", message: "x", cc: "a" }),
      400,
    );
    await expectRefused(
      t,
      () => ada.client.post("/api/support/pro-request", { company: "A", teamSize: 0 }),
      400,
    );
    await expectRefused(
      t,
      () => new ApiClient(t.url).post("/api/support/contact", { subject: "Hi", message: "Hello" }),
      401,
    );
  });
});
