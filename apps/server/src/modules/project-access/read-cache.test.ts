import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages, projects } from "../../db/schema/index.ts";
import { startRealtimeHub } from "../../lib/realtime.ts";
import type { ApiClient } from "../../testing/http-client.ts";
import { type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, startTwoApps, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver, drivers } from "../../testing/test-db.ts";
import { readCachesOf } from "./read-cache.ts";

const newComment = (text: string) => ({ dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: text });

/** The three kept reads of one reader: the project, the project list, a version's comments. */
function reads(client: ApiClient, at: () => { projectId: string; versionId: string }) {
  return {
    detail: () => client.get(`/api/projects/${at().projectId}`),
    list: async () => (await client.get("/api/projects")).body.data as { id: string; [k: string]: unknown }[],
    listed: async () =>
      ((await client.get("/api/projects")).body.data as { id: string; [k: string]: unknown }[]).find(
        (project) => project.id === at().projectId,
      ),
    comments: () => client.get(`/api/versions/${at().versionId}/comments`),
    /** Reads each twice: the second comes from the cache. */
    async warm() {
      for (let i = 0; i < 2; i++) {
        expect((await this.detail()).status).toBe(200);
        await this.list();
        expect((await this.comments()).status).toBe(200);
      }
    },
  };
}

/** The id of `uid`'s entry in the project's people. */
async function memberEntry(owner: ApiClient, projectId: string, uid: string): Promise<string> {
  const people = (await owner.get(`/api/projects/${projectId}/members`)).body.data as {
    id: string;
    uid: string | null;
  }[];
  return people.find((person) => person.uid === uid)!.id;
}

describe.each(drivers())("authenticated reads kept per process (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  const at = { projectId: "", versionId: "" };
  let asMember: ReturnType<typeof reads>;
  let asOwner: ReturnType<typeof reads>;

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [owner, member] = await Promise.all([signUpPerson(t, "owner"), signUpPerson(t, "member")]);
    asMember = reads(member.client, () => at);
    asOwner = reads(owner.client, () => at);
  });
  afterAll(() => t.close());

  /** A new project shared with the member (comment access), one page, one comment. */
  async function newProject(title: string) {
    at.projectId = (await owner.client.post("/api/projects", { title })).body.data.id;
    await owner.client.post(`/api/projects/${at.projectId}/members`, {
      email: member.address,
      access: "comment",
    });
    at.versionId = (
      await owner.client.post(`/api/projects/${at.projectId}/pages`, { url: "https://example.com/kept" })
    ).body.data.versionId;
    await member.client.post(`/api/versions/${at.versionId}/comments`, newComment("First"));
    // What these writes announce is heard before the tests read (a late announcement empties the caches).
    await t.settled();
  }

  it("answers a repeated read from the cache, the same as the first", async () => {
    await newProject("Kept");
    const first = [
      await asMember.detail(),
      await member.client.get("/api/projects"),
      await asMember.comments(),
    ];
    const caches = readCachesOf(t.ctx.database.db)!;
    expect(caches.answers.count).toBeGreaterThanOrEqual(2);
    expect(caches.versionAccess.count).toBeGreaterThanOrEqual(1);
    const again = [
      await asMember.detail(),
      await member.client.get("/api/projects"),
      await asMember.comments(),
    ];
    for (const [i, answer] of again.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe(first[i]!.headers.get("content-type"));
      expect(answer.body).toEqual(first[i]!.body);
    }
    // Each reader has their own answer: the owner's abilities are not the member's.
    expect((await asOwner.detail()).body.data.access).toBe("owner");
    expect((await asMember.detail()).body.data.access).toBe("comment");
  });

  it("shows a change to the project, its pages, versions, link or approvers at the next read", async () => {
    await newProject("Before");
    const { projectId, versionId } = at;
    // The writer is not the owner: nothing of theirs is what the reader's answers were read under.
    const editor = await signUpPerson(t, "editor");
    await owner.client.post(`/api/projects/${projectId}/members`, { email: editor.address, access: "edit" });
    const write = async (call: Promise<{ status: number }>) => expect((await call).status).toBeLessThan(300);

    await asMember.warm();
    await write(editor.client.patch(`/api/projects/${projectId}`, { title: "After" }));
    expect((await asMember.detail()).body.data.title).toBe("After");
    expect((await asMember.listed())!.title).toBe("After");

    await asMember.warm();
    await write(editor.client.patch(`/api/projects/${projectId}/sharing`, { public: true }));
    expect((await asMember.detail()).body.data.sharing.public).toBe(true);

    await asMember.warm();
    const added = (
      await editor.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/2" })
    ).body.data;
    expect((await asMember.detail()).body.data.pages).toHaveLength(2);
    expect((await asMember.listed())!.pageCount).toBe(2);

    await asMember.warm();
    await write(editor.client.patch(`/api/pages/${added.pageId}`, { title: "Renamed page" }));
    expect((await asMember.detail()).body.data.pages.map((page: { title: string }) => page.title)).toContain(
      "Renamed page",
    );

    await asMember.warm();
    await write(editor.client.patch(`/api/versions/${versionId}`, { title: "Renamed version" }));
    expect((await asMember.detail()).body.data.pages[0].versions[0].title).toBe("Renamed version");

    await asMember.warm();
    await write(owner.client.put(`/api/projects/${projectId}/approvers/${member.uid}`, { isApprover: true }));
    expect((await asMember.detail()).body.data.approvers).toEqual([member.uid]);

    await asMember.warm();
    await write(editor.client.post(`/api/versions/${versionId}/comments`, newComment("Second")));
    expect((await asMember.detail()).body.data.pages[0].versions[0].numberOfComments).toBe(2);

    await asMember.warm();
    await write(editor.client.delete(`/api/pages/${added.pageId}`));
    expect((await asMember.detail()).body.data.pages).toHaveLength(1);
    expect((await asMember.listed())!.pageCount).toBe(1);
  });

  it("follows a member's lowered access, then their removal, at the next read", async () => {
    await newProject("Revoked");
    const { projectId } = at;
    const entry = await memberEntry(owner.client, projectId, member.uid);
    await asMember.warm();
    expect((await asMember.comments()).body.data[0].abilities.reply).toBe(true);
    await owner.client.patch(`/api/projects/${projectId}/members/${entry}`, { access: "view" });
    expect((await asMember.detail()).body.data.access).toBe("view");
    expect((await asMember.listed())!.access).toBe("view");
    expect((await asMember.comments()).body.data[0].abilities.reply).toBe(false);

    await asMember.warm();
    expect((await owner.client.delete(`/api/projects/${projectId}/members/${entry}`)).status).toBe(200);
    expect((await asMember.detail()).status).toBe(404);
    expect((await asMember.comments()).status).toBe(404);
    expect(await asMember.listed()).toBeUndefined();
  });

  it("follows a transfer of ownership, and a deleted project, at the next read", async () => {
    await newProject("Handed over");
    const { projectId } = at;
    await asMember.warm();
    await asOwner.warm();
    expect((await owner.client.post(`/api/projects/${projectId}/transfer`, { to: member.uid })).status).toBe(
      200,
    );
    expect((await asMember.detail()).body.data.access).toBe("owner");
    expect((await asOwner.detail()).body.data.access).toBe("edit");
    expect((await asOwner.listed())!.access).toBe("edit");

    await asMember.warm();
    await asOwner.warm();
    expect((await member.client.delete(`/api/projects/${projectId}`)).status).toBe(200);
    for (const reader of [asMember, asOwner]) {
      expect((await reader.detail()).status).toBe(404);
      expect((await reader.comments()).status).toBe(404);
      expect(await reader.listed()).toBeUndefined();
    }
  });

  it("follows a team's name, a team member's role and their removal at the next read", async () => {
    const [creator, teammate] = await Promise.all([signUpPerson(t, "creator"), signUpPerson(t, "teammate")]);
    const teamId = (await owner.client.post("/api/teams", { product: "web", name: "Studio" })).body.data.id;
    await owner.client.post(`/api/teams/${teamId}/members`, { email: creator.address, access: "member" });
    const entry = (
      await owner.client.post(`/api/teams/${teamId}/members`, { email: teammate.address, access: "member" })
    ).body.data.id as string;
    at.projectId = (
      await creator.client.post("/api/projects", { title: "Team's", type: "web", teamId })
    ).body.data.id;
    at.versionId = (
      await creator.client.post(`/api/projects/${at.projectId}/pages`, { url: "https://example.com/t" })
    ).body.data.versionId;
    await creator.client.post(`/api/versions/${at.versionId}/comments`, newComment("Team comment"));
    const asTeammate = reads(teammate.client, () => at);

    await asTeammate.warm();
    expect((await asTeammate.detail()).body.data.access).toBe("edit");
    expect((await owner.client.patch(`/api/teams/${teamId}`, { name: "Atelier" })).status).toBe(200);
    expect((await asTeammate.detail()).body.data.team.name).toBe("Atelier");

    await asTeammate.warm();
    await owner.client.patch(`/api/teams/${teamId}/members/${entry}`, { access: "collaborator" });
    expect((await asTeammate.detail()).status).toBe(404);
    expect((await asTeammate.comments()).status).toBe(404);

    await owner.client.patch(`/api/teams/${teamId}/members/${entry}`, { access: "member" });
    await asTeammate.warm();
    expect((await owner.client.delete(`/api/teams/${teamId}/members/${entry}`)).status).toBe(200);
    expect((await asTeammate.detail()).status).toBe(404);
    expect((await asTeammate.comments()).status).toBe(404);
  });

  it("tells no socket of a change only caches hear of", async () => {
    await newProject("Quiet");
    // A socket of the hub itself (no per-reader delivery): it is sent whatever the hub would send.
    const hub = startRealtimeHub(t.ctx.database.db, t.ctx.ledger);
    const heard: string[] = [];
    hub.join(`project:${at.projectId}`, { userId: null, send: (data) => heard.push(data) });
    try {
      await owner.client.patch(`/api/projects/${at.projectId}`, { title: "Quietly renamed" });
      await member.client.post(`/api/versions/${at.versionId}/comments`, newComment("Heard"));
      await expect.poll(() => heard.length).toBeGreaterThan(0);
      expect(JSON.parse(heard[0]!)).toMatchObject({ type: "event", event: { type: "comments.created" } });
    } finally {
      await hub.stop();
    }
  });

  it("refuses a signed-out reader at once", async () => {
    await newProject("Signed out");
    const reader = await signUpPerson(t, "leaver");
    await owner.client.post(`/api/projects/${at.projectId}/members`, {
      email: reader.address,
      access: "view",
    });
    const asReader = reads(reader.client, () => at);
    await asReader.warm();
    // The cookie as it was: the client forgets it on signing out.
    const cookie = reader.client.cookieHeader();
    await reader.client.post("/api/auth/sign-out");
    for (const path of [
      `/api/projects/${at.projectId}`,
      "/api/projects",
      `/api/versions/${at.versionId}/comments`,
    ])
      expect((await fetch(t.url + path, { headers: { cookie } })).status).toBe(401);
  });

  it("sees rows changed behind the app's back (hand-written SQL): the database announces them", async () => {
    await newProject("By hand");
    await asMember.warm();
    await t.ctx.database.db
      .update(projects)
      .set({ title: "Renamed in SQL" })
      .where(eq(projects.id, at.projectId));
    await expect
      .poll(async () => (await asMember.detail()).body.data.title, { timeout: 2_000 })
      .toBe("Renamed in SQL");
    await asMember.warm();
    await t.ctx.database.db
      .update(pages)
      .set({ title: "Page renamed in SQL" })
      .where(eq(pages.projectId, at.projectId));
    await expect
      .poll(async () => (await asMember.detail()).body.data.pages[0].title, { timeout: 2_000 })
      .toBe("Page renamed in SQL");
    // Expired by hand: read-only at the next read (SPEC §4), not at the end of a kept entry.
    await asMember.warm();
    await t.ctx.database.db
      .update(projects)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(projects.id, at.projectId));
    await expect
      .poll(async () => (await asMember.comments()).body.data[0].abilities.reply, { timeout: 2_000 })
      .toBe(false);
  });

  it("stops serving a project's reads when it expires, with nothing announced at that moment", async () => {
    await newProject("Expiring");
    // Only the expiry itself can end what is kept once it was read under the new date.
    const expiresAt = new Date(Date.now() + 1500);
    await t.ctx.database.db.update(projects).set({ expiresAt }).where(eq(projects.id, at.projectId));
    await expect.poll(async () => (await asMember.comments()).body.data[0].abilities.reply).toBe(true);
    await asMember.warm();
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    // Read-only once expired (SPEC §4): a member no longer replies.
    expect((await asMember.comments()).body.data[0].abilities.reply).toBe(false);
  });
});

describe.runIf(defaultDriver() === "postgres")("authenticated reads kept by two server processes", () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, close } = await startTwoApps());
  });
  afterAll(() => close());

  it("serves a change made on one process to the next reads on the other as it commits", async () => {
    const [owner, member] = await Promise.all([signUpPerson(a, "owner"), signUpPerson(a, "member")]);
    const at = { projectId: "", versionId: "" };
    at.projectId = (await owner.client.post("/api/projects", { title: "Cross" })).body.data.id;
    await owner.client.post(`/api/projects/${at.projectId}/members`, {
      email: member.address,
      access: "comment",
    });
    at.versionId = (
      await owner.client.post(`/api/projects/${at.projectId}/pages`, { url: "https://example.com/x" })
    ).body.data.versionId;
    await member.client.post(`/api/versions/${at.versionId}/comments`, newComment("One"));
    await Promise.all([a.settled(), b.settled()]);
    const onB = (client: ApiClient) =>
      Object.assign(Object.create(Object.getPrototypeOf(client)), client, { baseUrl: b.url }) as ApiClient;
    const memberOnB = reads(onB(member.client), () => at);
    const ownerOnB = reads(onB(owner.client), () => at);
    // Another process announces within milliseconds of the commit, not at it (ADR 0007, 0016).
    const soon = { timeout: 2000, interval: 20 };

    await memberOnB.warm();
    expect(readCachesOf(b.ctx.database.db)!.answers.count).toBeGreaterThan(0);
    await owner.client.patch(`/api/projects/${at.projectId}`, { title: "Renamed on A" });
    await expect.poll(async () => (await memberOnB.detail()).body.data.title, soon).toBe("Renamed on A");
    await expect.poll(async () => (await memberOnB.listed())?.title, soon).toBe("Renamed on A");

    await memberOnB.warm();
    await owner.client.post(`/api/projects/${at.projectId}/pages`, { url: "https://example.com/y" });
    await expect.poll(async () => (await memberOnB.detail()).body.data.pages.length, soon).toBe(2);

    await memberOnB.warm();
    const entry = await memberEntry(owner.client, at.projectId, member.uid);
    await owner.client.patch(`/api/projects/${at.projectId}/members/${entry}`, { access: "view" });
    await expect.poll(async () => (await memberOnB.detail()).body.data.access, soon).toBe("view");
    await expect
      .poll(async () => (await memberOnB.comments()).body.data[0].abilities.reply, soon)
      .toBe(false);

    await memberOnB.warm();
    await owner.client.delete(`/api/projects/${at.projectId}/members/${entry}`);
    await expect.poll(async () => (await memberOnB.detail()).status, soon).toBe(404);
    await expect.poll(async () => (await memberOnB.comments()).status, soon).toBe(404);
    await expect.poll(async () => memberOnB.listed(), soon).toBeUndefined();

    await ownerOnB.warm();
    await owner.client.delete(`/api/projects/${at.projectId}`);
    await expect.poll(async () => (await ownerOnB.detail()).status, soon).toBe(404);
    await expect.poll(async () => (await ownerOnB.comments()).status, soon).toBe(404);

    // Signed out on A: refused on B as the session row's change is announced.
    await ownerOnB.list();
    const cookie = owner.client.cookieHeader();
    await owner.client.post("/api/auth/sign-out");
    await expect
      .poll(async () => (await fetch(`${b.url}/api/projects`, { headers: { cookie } })).status, soon)
      .toBe(401);
  });
});
