/**
 * Change of e-mail address over HTTP (SPEC §3 pendingEmail, §7 POST /email-change, issue #34): the
 * request with the password, the two mails, the single-use 24-hour link, cancel and resend, and every
 * refusal changing nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailChanges } from "../../db/schema/index.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson, uniqueEmail } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

const PASSWORD = "correct horse battery";

describe.each(routeDrivers())("changing one's e-mail address (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver });
  });
  afterAll(() => t.close());

  /** Asks for a change and answers the link mailed to the new address. */
  async function ask(person: Person, newEmail: string, notLink?: URL) {
    const asked = await person.client.post("/api/me/email-change", { email: newEmail, password: PASSWORD });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const mail = await t.inbox!.waitFor(
      (m) =>
        m.to.includes(newEmail) && Boolean(m.link?.includes("oobCode")) && m.link !== notLink?.toString(),
    );
    return new URL(mail.link!);
  }

  it("mails the new address a link and tells the old one; the link makes the new address the account's", async () => {
    const ann = await signUpPerson(t, "ann");
    const newEmail = uniqueEmail("ann-new");
    const link = await ask(ann, newEmail);
    expect(link.origin + link.pathname).toBe(`${t.url}/user-action`);
    expect(link.searchParams.get("mode")).toBe("verifyAndChangeEmail");
    const notice = await t.inbox!.waitFor(
      (m) => m.to.includes(ann.address) && m.subject.includes("being changed"),
    );
    expect(notice.text).toContain(newEmail);
    expect((await ann.client.get("/api/me")).body.data).toMatchObject({
      email: ann.address,
      pendingEmail: newEmail,
    });
    // Only the secret's hash is kept.
    const [row] = await t.ctx.database.db.select().from(emailChanges).where(eq(emailChanges.userId, ann.uid));
    expect(row!.tokenHash).not.toContain(link.searchParams.get("oobCode")!);
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const confirmed = await ann.client.post("/api/email-change", { token: link.searchParams.get("oobCode") });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.message).toBe("Your email has been verified.");
    // The session stays signed in, with the new address.
    expect((await ann.client.get("/api/me")).body.data).toMatchObject({
      email: newEmail,
      emailVerified: true,
      pendingEmail: null,
    });
    const newSignIn = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: newEmail,
      password: PASSWORD,
    });
    expect(newSignIn.status).toBe(200);
    const oldSignIn = await new ApiClient(t.url).post("/api/auth/sign-in/email", {
      email: ann.address,
      password: PASSWORD,
    });
    expect(oldSignIn.status).toBe(401);
  });

  it("says 'Please login to continue.' to a browser that is not signed in, and the link works once", async () => {
    const bob = await signUpPerson(t, "bob");
    const link = await ask(bob, uniqueEmail("bob-new"));
    const token = link.searchParams.get("oobCode");
    const visitor = new ApiClient(t.url);
    const first = await visitor.post("/api/email-change", { token });
    expect(first.body.message).toBe("Your email has been verified. Please login to continue.");
    await expectRefused(
      t,
      () => visitor.post("/api/email-change", { token }),
      400,
      "auth/invalid-action-code",
    );
  });

  it("refuses a forged link and an expired one, changing nothing", async () => {
    const cy = await signUpPerson(t, "cy");
    const link = await ask(cy, uniqueEmail("cy-new"));
    const visitor = new ApiClient(t.url);
    const forged = await expectRefused(
      t,
      () => visitor.post("/api/email-change", { token: "forged-token" }),
      400,
      "auth/invalid-action-code",
    );
    expect(forged.body.message).toBe("This link is not valid, or it has already been used.");
    await t.ctx.database.db
      .update(emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.userId, cy.uid));
    const expired = await expectRefused(
      t,
      () => visitor.post("/api/email-change", { token: link.searchParams.get("oobCode") }),
      400,
      "auth/expired-action-code",
    );
    expect(expired.body.message).toBe("This link has expired. Ask for a new one in Account Settings.");
    expect((await cy.client.get("/api/me")).body.data.email).toBe(cy.address);
    for (const body of [{}, { token: "" }, { token: 42 }, { token: "x".repeat(500) }])
      await expectRefused(t, () => visitor.post("/api/email-change", body), 400);
  });

  it("refuses an address in use, a malformed one, the same one, and a wrong or missing password", async () => {
    const dee = await signUpPerson(t, "dee");
    const other = await signUpPerson(t, "other");
    const post = (body: unknown) => () => dee.client.post("/api/me/email-change", body);
    const inUse = await expectRefused(
      t,
      post({ email: other.address.toUpperCase(), password: PASSWORD }),
      409,
      "auth/email-already-in-use",
    );
    expect(inUse.body.message).toBe("That e-mail address is already in use by another account.");
    const malformed = await expectRefused(t, post({ email: "not-an-address", password: PASSWORD }), 400);
    expect(malformed.body.message).toContain("Enter a valid e-mail address.");
    await expectRefused(t, post({ email: dee.address, password: PASSWORD }), 400, "auth/same-email");
    const wrong = await expectRefused(
      t,
      post({ email: uniqueEmail("dee-new"), password: "not my password" }),
      403,
      "auth/wrong-password",
    );
    expect(wrong.body.message).toBe("The password is incorrect.");
    await expectRefused(t, post({ email: uniqueEmail("dee-new") }), 400, "auth/missing-password");
    await expectRefused(t, post({ email: ["a@example.com"], password: PASSWORD }), 400);
    await expectRefused(
      t,
      () =>
        new ApiClient(t.url).post("/api/me/email-change", { email: uniqueEmail("x"), password: PASSWORD }),
      401,
    );
  });

  it("refuses the link when the address was taken after it was sent", async () => {
    const eve = await signUpPerson(t, "eve");
    const wanted = uniqueEmail("eve-new");
    const link = await ask(eve, wanted);
    await signUpPerson(t, "taker").then(async (taker) => {
      const takerLink = await ask(taker, wanted, link);
      expect(
        (await taker.client.post("/api/email-change", { token: takerLink.searchParams.get("oobCode") }))
          .status,
      ).toBe(200);
    });
    await expectRefused(
      t,
      () => eve.client.post("/api/email-change", { token: link.searchParams.get("oobCode") }),
      409,
      "auth/email-already-in-use",
    );
  });

  it("sends a new link on resend (the old one stops working) and cancels", async () => {
    const fay = await signUpPerson(t, "fay");
    const newEmail = uniqueEmail("fay-new");
    const first = await ask(fay, newEmail);
    const resent = await fay.client.post("/api/me/email-change/resend");
    expect(resent.status).toBe(200);
    expect(resent.body.data.pendingEmail).toBe(newEmail);
    await expectRefused(
      t,
      () => fay.client.post("/api/email-change", { token: first.searchParams.get("oobCode") }),
      400,
      "auth/invalid-action-code",
    );
    const second = await t.inbox!.waitFor(
      (m) => m.to.includes(newEmail) && m.link !== first.toString() && Boolean(m.link?.includes("oobCode")),
    );
    const cancelled = await fay.client.delete("/api/me/email-change");
    expect(cancelled.status).toBe(200);
    expect((await fay.client.get("/api/me")).body.data.pendingEmail).toBeNull();
    await expectRefused(
      t,
      () =>
        fay.client.post("/api/email-change", { token: new URL(second.link!).searchParams.get("oobCode") }),
      400,
      "auth/invalid-action-code",
    );
    await expectRefused(t, () => fay.client.post("/api/me/email-change/resend"), 400, "no-pending-email");
  });

  it("asks a person without a password (Google) for a recent sign-in instead", async () => {
    const gus = await signUpPerson(t, "gus");
    const { accounts } = await import("../../db/schema/index.ts");
    await t.ctx.database.db.delete(accounts).where(eq(accounts.userId, gus.uid));
    const fresh = await gus.client.post("/api/me/email-change", { email: uniqueEmail("gus-new") });
    expect(fresh.status).toBe(200);
    const { sessions } = await import("../../db/schema/index.ts");
    await t.ctx.database.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 3600_000) })
      .where(eq(sessions.userId, gus.uid));
    await expectRefused(
      t,
      () => gus.client.post("/api/me/email-change", { email: uniqueEmail("gus-newer") }),
      401,
      "auth/requires-recent-login",
    );
  });
});
