/**
 * GitHub's merge gate against the embedded GitHub stand-in: its pull requests and preview deployments reach
 * the app through the repository's signed webhook, and the "Redline review" commit status the app posts is
 * read back from the stand-in's statuses API.
 */
import { githubSignature } from "@redline/stand-ins";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeGateCommits, projectIntegrations } from "../../../db/schema/index.ts";
import { testComment } from "../../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { routeDrivers } from "../../../testing/test-db.ts";
import { connectTracker } from "../../../testing/trackers.ts";
import { postGateStatus } from "./github.gate.ts";
import { trackerSecrets } from "./trackers.load.ts";

const REPO = "gita-hub/feedback";
const POLL = { timeout: 60_000, interval: 200 };

describe.each(routeDrivers())("integrations: GitHub's merge gate (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let viewer: Person;
  let projectId: string;
  let pageId: string;
  let versionId: string;
  let pull: { number: number; sha: string };
  const base = () => `/api/projects/${projectId}/integrations`;
  const row = async () =>
    (
      await t.ctx.database.db
        .select()
        .from(projectIntegrations)
        .where(and(eq(projectIntegrations.projectId, projectId), eq(projectIntegrations.type, "github")))
    )[0]!;
  const standIn = (path: string, body: unknown) =>
    fetch(`${t.url}/dev/github${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  /** The commit's statuses at GitHub, newest first (as the connected account reads them). */
  const statuses = async (sha: string) => {
    const { token } = trackerSecrets(t.ctx).open(await row());
    const answer = await fetch(`${t.url}/dev/github/api/v3/repos/${REPO}/commits/${sha}/statuses`, {
      headers: { authorization: `token ${token}`, accept: "application/vnd.github+json" },
    });
    return (await answer.json()) as {
      state: string;
      context: string;
      description: string;
      target_url: string;
    }[];
  };
  const latest = async (sha: string) => (await statuses(sha))[0] ?? null;
  const openPull = async (previewUrl: string) => {
    const opened = await standIn("/_pulls", { repo: REPO, title: "New pricing", previewUrl });
    expect(opened.status).toBe(201);
    const body = await opened.json();
    return { number: body.number as number, sha: body.head.sha as string };
  };
  const commitRow = async (sha: string) =>
    (await t.ctx.database.db.select().from(mergeGateCommits).where(eq(mergeGateCommits.sha, sha)))[0];

  beforeAll(async () => {
    // The stand-in answers 500 when told to (GitHub down): the test's 5xx.
    t = await startTestApp({ driver, allowServerErrors: true });
    [owner, viewer] = await Promise.all([signUpPerson(t, "owner"), signUpPerson(t, "viewer")]);
    projectId = (await owner.client.post("/api/projects", { title: "Site" })).body.data.id;
    await owner.client.post(`/api/projects/${projectId}/members`, { email: viewer.address, access: "view" });
    ({ pageId, versionId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/pricing" })
    ).body.data);
    // The account's first repository in order is gita-hub/feedback.
    await connectTracker(t, owner, { projectId, tracker: "github", account: "gita-hub" });
  });
  afterAll(async () => {
    await t.close();
  }, 120_000);

  it("hears pull requests and deployments once the repository is linked; nothing is posted while the gate is off", async () => {
    const { token } = trackerSecrets(t.ctx).open(await row());
    const hooks = await (
      await fetch(`${t.url}/dev/github/api/v3/repos/${REPO}/hooks`, {
        headers: { authorization: `token ${token}` },
      })
    ).json();
    expect(hooks.map((hook: { events: string[] }) => hook.events)).toEqual([
      ["issues", "pull_request", "deployment_status"],
    ]);
    expect((await owner.client.get(base())).body.data.integrations[0].tracker.mergeGate).toBe(false);
    // The preview's address with a trailing slash and a query is the page's (origin and path agree).
    pull = await openPull("https://example.com/pricing/?preview=1");
    await expect.poll(async () => (await commitRow(pull.sha))?.pageId ?? null, POLL).toBe(pageId);
    expect(await commitRow(pull.sha)).toMatchObject({ pullNumber: pull.number, postedState: null });
    await t.settled();
    expect(await statuses(pull.sha)).toEqual([]);
  }, 120_000);

  it("the switch is the owner's and editors': a viewer is refused and nothing changes", async () => {
    await expectRefused(t, () => viewer.client.patch(`${base()}/github/gate`, { isEnabled: true }), 403);
    await expectRefused(t, () => owner.client.patch(`${base()}/github/gate`, { isEnabled: "yes" }), 400);
    expect((await row()).config.mergeGate).not.toBe(true);
  }, 120_000);

  it("turned on, the pull request gets a pending status linking to the page", async () => {
    const turned = await owner.client.patch(`${base()}/github/gate`, { isEnabled: true });
    expect(turned.status).toBe(200);
    expect(turned.body).toMatchObject({
      message: "Merge gate turned on.",
      data: { type: "github", tracker: { mergeGate: true } },
    });
    expect((await owner.client.get(base())).body.data.integrations[0].tracker.mergeGate).toBe(true);
    await expect
      .poll(() => latest(pull.sha), POLL)
      .toMatchObject({
        state: "pending",
        context: "Redline review",
        description: "Waiting for approval in Redline",
        target_url: `${t.url}/project/${projectId}/${pageId}`,
      });
    // The pull request's page on the stand-in shows the check.
    const page = await (await fetch(`${t.url}/dev/github/${REPO}/pull/${pull.number}`)).text();
    expect(page).toContain("Redline review");
    expect(page).toContain("Waiting for approval in Redline");
  }, 120_000);

  it("follows the page: pending with an open comment, success once approved with none open, pending again when unapproved", async () => {
    const commentId = (
      await owner.client.post(`/api/versions/${versionId}/comments`, testComment("Price is wrong"))
    ).body.data.id;
    await expect
      .poll(async () => (await latest(pull.sha))?.description, POLL)
      .toBe("1 open comment in Redline");
    expect((await owner.client.put(`/api/pages/${pageId}/approval`, { approved: true })).status).toBe(200);
    await t.settled();
    expect(await latest(pull.sha)).toMatchObject({
      state: "pending",
      description: "1 open comment in Redline",
    });
    expect((await owner.client.patch(`/api/comments/${commentId}`, { isResolved: true })).status).toBe(200);
    await expect
      .poll(() => latest(pull.sha), POLL)
      .toMatchObject({ state: "success", description: "Approved in Redline" });
    await owner.client.put(`/api/pages/${pageId}/approval`, { approved: false });
    await expect
      .poll(() => latest(pull.sha), POLL)
      .toMatchObject({ state: "pending", description: "Waiting for approval in Redline" });
  }, 120_000);

  it("a status GitHub fails to take (down) is posted again later", async () => {
    expect((await standIn("/_faults", { status: 500, times: 3 })).status).toBe(204);
    await owner.client.put(`/api/pages/${pageId}/approval`, { approved: true });
    // The failed attempts are kept on the commit while it waits to try again …
    await expect.poll(async () => (await commitRow(pull.sha))?.lastError ?? "", POLL).toMatch(/500/);
    // … until GitHub answers.
    await expect.poll(async () => (await commitRow(pull.sha))?.postedState, POLL).toBe("success");
    expect(await latest(pull.sha)).toMatchObject({ state: "success", context: "Redline review" });
    expect((await commitRow(pull.sha))?.lastError).toBeNull();
  }, 120_000);

  it("a deployment of a commit no pull request has, or of another site, posts nothing", async () => {
    const lone = "ab".repeat(20);
    expect(
      (
        await standIn("/_deployments", {
          repo: REPO,
          sha: lone,
          environmentUrl: "https://example.com/pricing",
        })
      ).status,
    ).toBe(204);
    await expect.poll(async () => (await commitRow(lone))?.pageId ?? null, POLL).toBe(pageId);
    const elsewhere = await openPull("https://elsewhere.example.org/pricing");
    await expect
      .poll(async () => (await commitRow(elsewhere.sha))?.previewUrl ?? null, POLL)
      .toBe("https://elsewhere.example.org/pricing");
    await t.settled();
    expect(await commitRow(elsewhere.sha)).toMatchObject({ pageId: null, pullNumber: elsewhere.number });
    expect(await statuses(lone)).toEqual([]);
    expect(await statuses(elsewhere.sha)).toEqual([]);
  }, 120_000);

  it("refuses a delivery with a wrong signature or a stale one, and records nothing", async () => {
    const { hookSecret } = trackerSecrets(t.ctx).open(await row());
    const sha = "cd".repeat(20);
    const now = new Date().toISOString();
    const body = JSON.stringify({
      action: "opened",
      number: 77,
      pull_request: { number: 77, state: "open", updated_at: now, head: { sha } },
      repository: { full_name: REPO },
    });
    const integrationId = (await row()).id;
    const deliver = (payload: string, signature: string) =>
      fetch(`${t.url}/api/integrations/github/webhook/${integrationId}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "pull_request",
          "x-hub-signature-256": signature,
        },
        body: payload,
      });
    expect((await deliver(body, githubSignature("guess", body))).status).toBe(401);
    const stale = body.replace(now, new Date(Date.now() - 3_600_000).toISOString());
    expect((await deliver(stale, githubSignature(hookSecret!, stale))).status).toBe(400);
    expect(await commitRow(sha)).toBeUndefined();
    // The same delivery signed with the hook's secret is taken.
    expect((await deliver(body, githubSignature(hookSecret!, body))).status).toBe(200);
    expect(await commitRow(sha)).toMatchObject({ pullNumber: 77, pageId: null });
  }, 120_000);

  it("off again, the switch says so and nothing more is posted", async () => {
    const turned = await owner.client.patch(`${base()}/github/gate`, { isEnabled: false });
    expect(turned.body).toMatchObject({
      message: "Merge gate turned off.",
      data: { tracker: { mergeGate: false } },
    });
    const before = (await statuses(pull.sha)).length;
    await owner.client.put(`/api/pages/${pageId}/approval`, { approved: false });
    await t.settled();
    // Even asked directly, the commit's post does nothing while the gate is off.
    expect(await postGateStatus(t.ctx, (await commitRow(pull.sha))!.id)).toBe("skipped");
    expect((await statuses(pull.sha)).length).toBe(before);
    expect(await latest(pull.sha)).toMatchObject({ state: "success" });
  });
});
