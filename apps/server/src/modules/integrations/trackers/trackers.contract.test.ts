/**
 * What every task tracker does the same way (issue #30), run over each against its embedded stand-in:
 * connecting through its authorize page and the return route with the state checked, choosing where cards
 * go, a card from a comment (once), each side resolving the other through the card's own page at the
 * tracker, "Something went wrong" and a later retry when the tracker fails, and disconnecting. What only
 * one tracker does (its webhook's proof, token refresh, permissions…) is in its own test file.
 */
import { TRACKER_NAMES, TRACKER_TERMS, type TrackerType } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments, projectIntegrations } from "../../../db/schema/index.ts";
import { testComment } from "../../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { drivers } from "../../../testing/test-db.ts";
import { allowTracker } from "../../../testing/trackers.ts";

interface Profile {
  tracker: TrackerType;
  account: string;
  /** The authorize page's path at the stand-in. */
  authorizePath: string;
  /** The card page's form: finishing (true) or reopening (false) it, as a person there. */
  pageForm(finished: boolean): Record<string, string>;
  /** What the card page's status says once it is finished, and when it is open. */
  finished: string;
  open: string;
}

const PROFILES: Profile[] = [
  {
    tracker: "trello",
    account: "Tess Trello",
    authorizePath: "/dev/trello/1/authorize",
    pageForm: (finished) => ({ closed: String(finished) }),
    finished: "Archived",
    open: "Open",
  },
  {
    tracker: "clickup",
    account: "Cleo Clickup",
    authorizePath: "/dev/clickup/api",
    pageForm: (finished) => ({ status: finished ? "complete" : "to do" }),
    finished: "COMPLETE",
    open: "TO DO",
  },
  {
    tracker: "github",
    account: "gita-hub",
    authorizePath: "/dev/github/login/oauth/authorize",
    pageForm: (finished) => ({ state: finished ? "closed" : "open" }),
    finished: "Closed",
    open: "Open",
  },
  {
    tracker: "asana",
    account: "Ada Asana",
    authorizePath: "/dev/asana/-/oauth_authorize",
    pageForm: (finished) => ({ completed: String(finished) }),
    finished: "Completed",
    open: "Incomplete",
  },
  {
    tracker: "jira",
    account: "Jade Jira",
    authorizePath: "/dev/jira/auth/authorize",
    pageForm: (finished) => ({ status: finished ? "done" : "new" }),
    finished: "Status: Done",
    open: "Status: To Do",
  },
];

describe.each(drivers())("task trackers' contract (%s)", (driver) => {
  describe.each(PROFILES)("$tracker", (profile) => {
    const { tracker } = profile;
    const name = TRACKER_NAMES[tracker];
    let t: TestApp;
    let owner: Person;
    let editor: Person;
    let projectId: string;
    let versionId: string;
    let card: { id: string; subjectId: string; url: string; externalId: string };
    const base = () => `/api/projects/${projectId}/integrations`;
    const row = async () =>
      (
        await t.ctx.database.db
          .select()
          .from(projectIntegrations)
          .where(eq(projectIntegrations.projectId, projectId))
      )[0];
    const cards = async () => (await owner.client.get(`${base()}/cards`)).body.data as any[];
    const pin = async (text: string) =>
      (await owner.client.post(`/api/versions/${versionId}/comments`, testComment(text))).body.data
        .id as string;
    const resolved = async (commentId: string) =>
      (await t.ctx.database.db.select().from(comments).where(eq(comments.id, commentId)))[0]!.isResolved;
    /** The card's page at the tracker: its status line, and the whole page. */
    const cardPage = async (url: string) => {
      const html = await (await fetch(url)).text();
      return { status: /<p role="status">([^<]*)<\/p>/.exec(html)?.[1], html };
    };
    const onTracker = (url: string, finished: boolean) =>
      fetch(url, {
        method: "POST",
        body: new URLSearchParams(profile.pageForm(finished)),
        headers: { "content-type": "application/x-www-form-urlencoded" },
        redirect: "manual",
      });
    const fault = (status: number) =>
      fetch(`${t.url}/dev/${tracker}/_faults`, {
        method: "POST",
        body: JSON.stringify({ status, times: 1 }),
        headers: { "content-type": "application/json" },
      });

    beforeAll(async () => {
      // The stand-in answers 500 when told to, and a spent grant makes the app answer 502: the test's 5xx.
      t = await startTestApp({ driver, allowServerErrors: true });
      [owner, editor] = await Promise.all([
        signUpPerson(t, "owner", "Olivia Owner"),
        signUpPerson(t, "editor"),
      ]);
      projectId = (await owner.client.post("/api/projects", { title: `${name} cards` })).body.data.id;
      await owner.client.post(`/api/projects/${projectId}/members`, {
        email: editor.address,
        access: "edit",
      });
      ({ versionId } = (
        await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/p" })
      ).body.data);
    });
    afterAll(async () => {
      await t.close();
    });

    it("connects through the authorize page and the return route, the state checked", async () => {
      expect((await owner.client.get(base())).body.data.available).toContain(tracker);
      const started = await owner.client.get(`${base()}/${tracker}/authorize`);
      expect(started.status).toBe(200);
      const url = new URL(started.body.data.url);
      expect(url.pathname).toBe(profile.authorizePath);
      const { back, state, grant } = await allowTracker(t, tracker, started.body.data.url, profile.account);
      expect(`${back.origin}${back.pathname}`).toBe(`${t.ctx.config.appUrl}/integration/${tracker}`);
      const connect = (person: Person, body: unknown) =>
        person.client.post(`/api/integrations/${tracker}/connect`, body);
      await expectRefused(t, () => connect(owner, { state: `${state}x`, ...grant }), 400, "invalid-state");
      // Someone else's state (the editor did not start it).
      await expectRefused(t, () => connect(editor, { state, ...grant }), 400, "invalid-state");
      // Sent back without a grant (the person said no).
      await expectRefused(t, () => connect(owner, { state }), 400, "access-denied");
      expect(await row()).toBeUndefined();

      const connected = await connect(owner, { state, ...grant });
      expect(connected.status).toBe(200);
      expect(connected.body).toMatchObject({
        message: `${name} connected successfully`,
        projectId,
        data: { type: tracker, isEnabled: true, tracker: { isAuthorized: true, account: profile.account } },
      });
      // What the tracker handed over is sealed, and never shown.
      const sealed = (await row())!;
      expect(sealed.secrets).toMatch(/^v1\./);
      for (const value of Object.values(grant))
        expect(JSON.stringify((await owner.client.get(base())).body)).not.toContain(value);
    });

    it("offers the account's destinations and keeps the chosen one, refusing another", async () => {
      const destinations = await editor.client.get(`${base()}/${tracker}/destinations`);
      expect(destinations.status).toBe(200);
      const [container] = destinations.body.data;
      expect(container.lists.length).toBeGreaterThan(0);
      await expectRefused(
        t,
        () => owner.client.put(`${base()}/${tracker}`, { containerId: container.id, listId: "nope/0" }),
        400,
        "unknown-destination",
      );
      const saved = await owner.client.put(`${base()}/${tracker}`, {
        containerId: container.id,
        listId: container.lists[0].id,
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data.tracker.destination).toMatchObject({
        containerName: container.name,
        listName: container.lists[0].name,
      });
    });

    const term = TRACKER_TERMS[tracker].card;
    it(`makes ${/^[aeiou]/.test(term) ? "an" : "a"} ${term} from a comment with its text, page and a link back; once`, async () => {
      const commentId = await pin("The heading is too small");
      const made = await owner.client.post(`${base()}/${tracker}/cards`, {
        subject: "comment",
        id: commentId,
      });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({
        message: `Comment added to ${name}`,
        data: { tracker, subject: "comment", subjectId: commentId, status: "created", createdBy: owner.uid },
      });
      card = made.body.data;
      expect(card.url.startsWith(`${t.url}/dev/${tracker}/`)).toBe(true);
      const page = await cardPage(card.url);
      expect(page.html).toContain("The heading is too small");
      expect(page.html).toContain("Page: https://example.com/p");
      expect(page.html).toContain(`${t.url}/project/${projectId}/`);
      expect(page.status).toBe(profile.open);
      await expectRefused(
        t,
        () => owner.client.post(`${base()}/${tracker}/cards`, { subject: "comment", id: commentId }),
        409,
        "card-exists",
      );
      expect((await cards()).filter((c) => c.subjectId === commentId)).toHaveLength(1);
    });

    it("resolving in Redline finishes it there; finishing or reopening it there follows here", async () => {
      await owner.client.patch(`/api/comments/${card.subjectId}`, { isResolved: true });
      await expect
        .poll(async () => (await cardPage(card.url)).status, { timeout: 30_000 })
        .toBe(profile.finished);
      await t.settled();
      // A person reopens it at the tracker: its signed webhook reopens the thread, and finishing resolves it.
      expect((await onTracker(card.url, false)).status).toBe(303);
      await expect.poll(() => resolved(card.subjectId), { timeout: 30_000 }).toBe(false);
      await onTracker(card.url, true);
      await expect.poll(() => resolved(card.subjectId), { timeout: 30_000 }).toBe(true);
      await t.settled();
    });

    it("answers 'Something went wrong' when the tracker fails (500, 429), and makes the card later", async () => {
      const commentId = await pin("Made after a 500");
      await fault(500);
      const failed = await owner.client.post(`${base()}/${tracker}/cards`, {
        subject: "comment",
        id: commentId,
      });
      expect(failed.status).toBe(502);
      expect(failed.body.message).toBe("Something went wrong");
      // The comment is Redline's, whatever the tracker said.
      const listed = (await owner.client.get(`/api/versions/${versionId}/comments`)).body.data;
      expect(listed.some((c: { id: string }) => c.id === commentId)).toBe(true);
      await expect
        .poll(async () => (await cards()).find((c) => c.subjectId === commentId)?.status, { timeout: 30_000 })
        .toBe("created");
      await fault(429);
      const limited = await owner.client.get(`${base()}/${tracker}/destinations`);
      expect(limited.status).toBe(502);
      expect(limited.body.message).toBe("Something went wrong");
      expect((await owner.client.get(`${base()}/${tracker}/destinations`)).status).toBe(200);
      await t.settled();
    });

    it("disables and enables with SPEC's texts ('Asana integrations disabled', …)", async () => {
      const off = await owner.client.patch(`${base()}/${tracker}`, { isEnabled: false });
      expect(off.body).toMatchObject({
        message: `${name} integrations disabled`,
        data: { isEnabled: false },
      });
      const on = await owner.client.patch(`${base()}/${tracker}`, { isEnabled: true });
      expect(on.body).toMatchObject({ message: `${name} integrations enabled`, data: { isEnabled: true } });
    });

    it("disconnects with SPEC's text: the record and its tokens go, made cards keep their link", async () => {
      const gone = await owner.client.delete(`${base()}/${tracker}`);
      expect(gone.status).toBe(200);
      expect(gone.body.message).toBe(`${name} disconnected successfully.`);
      expect(await row()).toBeUndefined();
      expect((await cards()).some((c) => c.id === card.id)).toBe(true);
      await expectRefused(t, () => owner.client.delete(`${base()}/${tracker}`), 404);
      await t.settled();
    });
  });
});
