import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments, projectIntegrations, trackerCards, versions } from "../../../db/schema/index.ts";
import { testComment } from "../../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { drivers } from "../../../testing/test-db.ts";
import { allowGithub } from "../../../testing/trackers.ts";
import { trackerSecrets } from "./trackers.load.ts";

describe.each(drivers())("integrations: GitHub (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let projectId: string;
  let versionId: string;
  let commentId: string;
  let issue: { id: string; externalId: string; url: string };
  const base = () => `/api/projects/${projectId}/integrations`;
  const row = async () =>
    (
      await t.ctx.database.db
        .select()
        .from(projectIntegrations)
        .where(eq(projectIntegrations.projectId, projectId))
    )[0];
  /** GitHub's API as the connected account (the token read from the sealed row). */
  const github = async (path: string, init: RequestInit = {}) => {
    const { token } = trackerSecrets(t.ctx).open((await row())!);
    return fetch(`${t.url}/dev/github/api/v3${path}`, {
      ...init,
      headers: { authorization: `token ${token}`, accept: "application/vnd.github+json", ...init.headers },
    });
  };
  const issuePath = (externalId: string) => {
    const [repo, number] = externalId.split("#");
    return `/repos/${repo}/issues/${number}`;
  };
  const resolved = async (id: string) =>
    (await t.ctx.database.db.select().from(comments).where(eq(comments.id, id)))[0]!.isResolved;

  beforeAll(async () => {
    // The stand-in answers 500 when told to, and a used code makes the app answer 502: the test's 5xx.
    t = await startTestApp({ driver, allowServerErrors: true });
    [owner, editor] = await Promise.all([
      signUpPerson(t, "owner", "Olivia Owner"),
      signUpPerson(t, "editor"),
    ]);
    projectId = (await owner.client.post("/api/projects", { title: "Issues" })).body.data.id;
    await owner.client.post(`/api/projects/${projectId}/members`, { email: editor.address, access: "edit" });
    ({ versionId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/g" })
    ).body.data);
  });
  afterAll(async () => {
    await t.close();
  });

  it("asks for the repo scope; a code works once; the token is sealed", async () => {
    const started = await owner.client.get(`${base()}/github/authorize`);
    const url = new URL(started.body.data.url);
    expect(url.searchParams.get("scope")).toBe("repo");
    expect(url.searchParams.get("redirect_uri")).toBe(`${t.url}/integration/github`);
    const page = await fetch(started.body.data.url);
    expect(await page.text()).toContain(">Authorize</button>");
    const granted = await allowGithub(t, started.body.data.url);
    const connect = (person: Person, body: unknown) =>
      person.client.post("/api/integrations/github/connect", body);
    const handed = { state: granted.state, code: granted.code };
    const connected = await connect(owner, handed);
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({
      message: "GitHub connected successfully",
      projectId,
      data: { type: "github", isEnabled: true, tracker: { isAuthorized: true, account: "gita-hub" } },
    });
    // A code works once (GitHub's bad_verification_code).
    await expectRefused(t, () => connect(owner, handed), 502, "tracker-failed");
    const sealed = (await row())!;
    const { token } = trackerSecrets(t.ctx).open(sealed);
    expect(token).toMatch(/^gho_/);
    expect(sealed.secrets).not.toContain(token!.slice(4));
    expect(JSON.stringify((await owner.client.get(base())).body)).not.toContain(token);
  });

  it("offers the repositories one may push to, and watches the chosen one with a signed hook", async () => {
    const destinations = await editor.client.get(`${base()}/github/destinations`);
    expect(destinations.status).toBe(200);
    // The read-only organization's repository is not offered.
    expect(destinations.body.data).toEqual([
      {
        id: "gita-hub",
        name: "gita-hub",
        lists: [
          { id: "feedback", name: "feedback" },
          { id: "website", name: "website" },
        ],
      },
    ]);
    const refused = await expectRefused(
      t,
      () => owner.client.put(`${base()}/github`, { containerId: "redline-demo", listId: "docs" }),
      400,
      "unknown-destination",
    );
    expect(refused.body.message).toBe("Choose one of your repositories.");
    const saved = await owner.client.put(`${base()}/github`, { containerId: "gita-hub", listId: "feedback" });
    expect(saved.status).toBe(200);
    expect(saved.body.data.tracker.destination).toMatchObject({
      containerName: "gita-hub",
      listName: "feedback",
    });
    const hooks = await (await github("/repos/gita-hub/feedback/hooks")).json();
    expect(hooks).toEqual([
      expect.objectContaining({
        events: ["issues", "pull_request", "deployment_status"],
        active: true,
        config: expect.objectContaining({
          url: `${t.url}/api/integrations/github/webhook/${(await row())!.id}`,
          content_type: "json",
        }),
      }),
    ]);
    const secrets = trackerSecrets(t.ctx).open((await row())!);
    expect(secrets.hookId).toBe(`gita-hub/feedback/${hooks[0].id}`);
    expect(secrets.hookSecret).toMatch(/^[0-9a-f]{64}$/);
  });

  it("makes an issue from a comment with its text, the page's screenshot and a link back", async () => {
    // The version the comment is pinned on has a stored screenshot: the issue links it, signed.
    const key = `screenshots/${versionId}-github-test.png`;
    await t.ctx.storage.put(key, Buffer.from("not really a png"));
    await t.ctx.database.db.update(versions).set({ screenshotKey: key }).where(eq(versions.id, versionId));
    commentId = (
      await owner.client.post(`/api/versions/${versionId}/comments`, testComment("The logo is blurry"))
    ).body.data.id;
    const made = await owner.client.post(`${base()}/github/cards`, { subject: "comment", id: commentId });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      message: "Comment added to GitHub",
      data: { tracker: "github", status: "created", externalId: "gita-hub/feedback#1" },
    });
    issue = made.body.data;
    expect(issue.url).toBe(`${t.url}/dev/github/gita-hub/feedback/issues/1`);
    const there = await (await github(issuePath(issue.externalId))).json();
    expect(there).toMatchObject({ number: 1, title: "The logo is blurry", state: "open" });
    expect(there.body).toContain("Page: https://example.com/g");
    expect(there.body).toContain(`${t.url}/project/${projectId}/`);
    const screenshot = /Screenshot: (\S+)/.exec(there.body)?.[1];
    expect(screenshot).toMatch(new RegExp(`^${t.contentUrl}/s/${versionId}\\?exp=\\d+&sig=`));
    expect((await fetch(screenshot!)).status).toBe(200);
    const again = await expectRefused(
      t,
      () => owner.client.post(`${base()}/github/cards`, { subject: "comment", id: commentId }),
      409,
      "card-exists",
    );
    expect(again.body.message).toBe("This already has a GitHub issue.");
  });

  it("resolving in Redline closes the issue as completed", async () => {
    await owner.client.patch(`/api/comments/${commentId}`, { isResolved: true });
    await expect
      .poll(async () => (await (await github(issuePath(issue.externalId))).json()).state, { timeout: 30_000 })
      .toBe("closed");
    expect((await (await github(issuePath(issue.externalId))).json()).state_reason).toBe("completed");
    await t.settled();
  });

  it("refuses a forged or missing signature and a stale event, changing nothing; ignores a ping", async () => {
    const { githubSignature } = await import("@redline/stand-ins");
    const { id, ...sealed } = (await row())!;
    const { hookSecret } = trackerSecrets(t.ctx).open(sealed);
    const url = `${t.url}/api/integrations/github/webhook/${id}`;
    const event = (action: string, at: string) =>
      JSON.stringify({
        action,
        issue: { number: 1, html_url: issue.url, updated_at: at, closed_at: null },
        repository: { full_name: "gita-hub/feedback" },
        sender: { login: "mallory" },
      });
    const send = (body: string, headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-github-delivery": crypto.randomUUID(), ...headers },
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const reopen = event("reopened", new Date().toISOString());
    await expectRefused(
      t,
      () =>
        send(reopen, {
          "x-github-event": "issues",
          "x-hub-signature-256": githubSignature("a guess", reopen),
        }),
      401,
      "invalid-signature",
    );
    await expectRefused(t, () => send(reopen, { "x-github-event": "issues" }), 401, "invalid-signature");
    const old = event("reopened", new Date(Date.now() - 60 * 60_000).toISOString());
    await expectRefused(
      t,
      () =>
        send(old, { "x-github-event": "issues", "x-hub-signature-256": githubSignature(hookSecret!, old) }),
      400,
      "stale-webhook",
    );
    const ping = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    const pinged = await send(ping, {
      "x-github-event": "ping",
      "x-hub-signature-256": githubSignature(hookSecret!, ping),
    });
    expect(pinged).toEqual({ status: 200, body: { applied: 0 } });
    expect(await resolved(commentId)).toBe(true);
  });

  it("deletes a card by closing its issue as not planned, leaving the thread as it was", async () => {
    await owner.client.patch(`/api/comments/${commentId}`, { isResolved: false });
    await expect
      .poll(async () => (await (await github(issuePath(issue.externalId))).json()).state, { timeout: 15_000 })
      .toBe("open");
    await t.settled();
    const deleted = await owner.client.delete(`${base()}/github/cards/${issue.id}`);
    expect(deleted.body.message).toBe("Comment deleted on GitHub");
    const there = await (await github(issuePath(issue.externalId))).json();
    expect(there).toMatchObject({ state: "closed", state_reason: "not_planned" });
    expect(there.labels.map((label: { name: string }) => label.name)).toEqual(["deleted in Redline"]);
    await t.settled();
    expect(await resolved(commentId)).toBe(false);
    expect(
      (await t.ctx.database.db.select().from(trackerCards).where(eq(trackerCards.id, issue.id))).length,
    ).toBe(0);
  });

  it("disconnects: the record and token gone, the repository's hook deleted", async () => {
    // Read before the row goes: the token still works at GitHub (the user may revoke it there).
    const { token } = trackerSecrets(t.ctx).open((await row())!);
    const gone = await owner.client.delete(`${base()}/github`);
    expect(gone.body.message).toBe("GitHub disconnected successfully.");
    expect(await row()).toBeUndefined();
    const hooks = await fetch(`${t.url}/dev/github/api/v3/repos/gita-hub/feedback/hooks`, {
      headers: { authorization: `token ${token}` },
    });
    expect(await hooks.json()).toEqual([]);
    await expectRefused(t, () => owner.client.delete(`${base()}/github`), 404);
  });
});
