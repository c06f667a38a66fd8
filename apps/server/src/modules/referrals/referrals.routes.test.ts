/**
 * Refer & Earn end to end through the API: a person's link leaves its code in the friend's browser, the
 * account made there counts as theirs, and once the friend proves their address the referrer holds the
 * Standard plan for 30 more days (from the end of months already running). A link cannot be self-referred
 * or replayed, a bad code leaves nothing, and the months end when their time is up.
 */
import { REFERRAL_COOKIE, type Referral } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referrals, users } from "../../db/schema/index.ts";
import { ApiClient } from "../../testing/http-client.ts";
import { type Person, signUpPerson, uniqueEmail } from "../../testing/people.ts";
import { routeIt } from "../../testing/route-it.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";
import { rewardReferral } from "../auth/referral-signup.ts";
import { activePrivilege } from "../plans/plans.ts";

const DAY_MS = 86_400_000;

describe.each(drivers())("Refer & Earn (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;
  let link: string;

  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
    ada = await signUpPerson(t, "ada", "Ada");
    link = ((await ada.client.get("/api/me/referral")).body.data as Referral).link;
  });
  afterAll(() => t.close());

  /** Follows a link as a browser would, without following the redirect: where it leads and the cookie. */
  const follow = async (path: string, cookie?: string) => {
    const answer = await fetch(`${t.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
    const kept = answer.headers.getSetCookie().find((c) => c.startsWith(`${REFERRAL_COOKIE}=`));
    return { status: answer.status, location: answer.headers.get("location"), cookie: kept?.split(";")[0] };
  };

  /** A friend signs up in a browser holding `cookie`; `verify` proves the address. */
  const friendSignsUp = async (cookie: string | undefined, verify = true) => {
    const email = uniqueEmail("friend");
    const client = new ApiClient(t.url);
    const headers: Record<string, string> = cookie ? { cookie } : {};
    const made = await client.request(
      "POST",
      "/api/auth/sign-up/email",
      { email, password: "correct horse battery", name: "Friend" },
      headers,
    );
    expect(made.status).toBe(200);
    const uid = made.body.user.id as string;
    if (verify) {
      const mail = await t.inbox!.waitFor(
        (m) => m.to.includes(email) && Boolean(m.link?.includes("verifyEmail")),
      );
      const token = new URL(mail.link!).searchParams.get("oobCode")!;
      expect((await client.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(
        200,
      );
    }
    return { client, uid, email };
  };

  const adaReferral = async () => (await ada.client.get("/api/me/referral")).body.data as Referral;
  const adaRow = async () => (await t.ctx.database.db.select().from(users).where(eq(users.id, ada.uid)))[0]!;

  routeIt(driver)("gives each person one link of their own", async () => {
    expect(link).toMatch(new RegExp(`^${t.url}/r/[23456789a-z]{8}$`));
    expect((await adaReferral()).link).toBe(link);
    const other = await signUpPerson(t, "bo", "Bo");
    expect(((await other.client.get("/api/me/referral")).body.data as Referral).link).not.toBe(link);
    expect(await adaReferral()).toMatchObject({
      signUps: 0,
      rewarded: 0,
      maxRewards: 12,
      standardUntil: null,
    });
  });

  it("counts a friend's sign-up through the link, and rewards a month of Standard once their address is proved", async () => {
    const path = new URL(link).pathname;
    const followed = await follow(path);
    expect(followed).toMatchObject({ status: 302, location: "/signup" });
    expect(followed.cookie).toBe(`${REFERRAL_COOKIE}=${path.slice(3)}`);

    const friend = await friendSignsUp(followed.cookie, false);
    expect(await adaReferral()).toMatchObject({ signUps: 1, rewarded: 0, standardUntil: null });
    // Verifying proves the address: the reward.
    const mail = await t.inbox!.waitFor(
      (m) => m.to.includes(friend.email) && Boolean(m.link?.includes("verifyEmail")),
    );
    const token = new URL(mail.link!).searchParams.get("oobCode")!;
    await friend.client.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
    const rewarded = await adaReferral();
    expect(rewarded).toMatchObject({ signUps: 1, rewarded: 1 });
    const until = new Date(rewarded.standardUntil!).getTime();
    expect(Math.abs(until - (Date.now() + 30 * DAY_MS))).toBeLessThan(60_000);
    const me = (await ada.client.get("/api/me")).body.data;
    expect(me.privilege).toBe("standard");
    expect(me.limits.web.projects).not.toBe(1);

    // Replayed: the same friend's reward is not given twice.
    await rewardReferral(t.ctx.database.db, friend.uid);
    expect((await adaReferral()).standardUntil).toBe(rewarded.standardUntil);

    // A second friend adds 30 days after the first month, not from today.
    await friendSignsUp(followed.cookie);
    const second = await adaReferral();
    expect(second).toMatchObject({ signUps: 2, rewarded: 2 });
    expect(new Date(second.standardUntil!).getTime() - until).toBeGreaterThanOrEqual(30 * DAY_MS - 5_000);
  });

  routeIt(driver)(
    "cannot be self-referred: the referrer's own visit leaves nothing, nor does their session on a sign-up",
    async () => {
      const before = await adaReferral();
      const own = await follow(new URL(link).pathname, ada.client.cookieHeader());
      expect(own).toMatchObject({ status: 302, location: "/projects", cookie: undefined });
      // A sign-up request that carries the referrer's own session (a second account of theirs).
      const code = new URL(link).pathname.slice(3);
      await friendSignsUp(`${ada.client.cookieHeader()}; ${REFERRAL_COOKIE}=${code}`, false);
      expect((await adaReferral()).signUps).toBe(before.signUps);
    },
  );

  routeIt(driver)("leaves nothing for a malformed or unknown code", async () => {
    const rows = async () => (await t.ctx.database.db.select().from(referrals)).length;
    const before = await rows();
    const malformed = await follow("/r/%3Cscript%3E");
    expect(malformed).toMatchObject({ status: 302, location: "/signup", cookie: undefined });
    await friendSignsUp(`${REFERRAL_COOKIE}=zzzzzzzz`, false);
    await friendSignsUp(`${REFERRAL_COOKIE}=<script>`, false);
    expect(await rows()).toBe(before);
  });

  routeIt(driver)("ends the months when their time is up", async () => {
    const row = await adaRow();
    expect(activePrivilege(row)).toBe("standard");
    expect(activePrivilege(row, new Date(row.privilegeUntil!.getTime() + 1))).toBeNull();
    await t.ctx.database.db
      .update(users)
      .set({ privilegeUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, ada.uid));
    const me = (await ada.client.get("/api/me")).body.data;
    expect(me.privilege).toBeNull();
    expect((await adaReferral()).standardUntil).toBeNull();
  });

  routeIt(driver)("answers a signed-out caller 401", async () => {
    expect((await new ApiClient(t.url).get("/api/me/referral")).status).toBe(401);
  });
});
