import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/index.ts";
import { users } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { setLimits, startTestApp, startTwoApps, type TestApp } from "../../testing/test-app.ts";
import { defaultDriver, drivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

async function revisionOf(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ revision: users.countersRevision }).from(users).where(eq(users.id, userId));
  return row!.revision;
}

describe.each(drivers())("the user's counters revision (%s)", (driver) => {
  let t: TestApp;
  let db: Database;
  beforeAll(async () => {
    t = await startTestApp({ driver });
    db = t.ctx.database.db;
  });
  afterAll(() => t.close());

  it("moves with every write that changes what /api/me counts, in that write's transaction", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, email("owner"));
    await setLimits(t, owner, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
    const ownerId = (await owner.get("/api/me")).body.data.uid as string;
    let last = await revisionOf(db, ownerId);
    const moved = async () => {
      const now = await revisionOf(db, ownerId);
      const changed = now > last;
      last = now;
      return changed;
    };

    const projectId = (await owner.post("/api/projects", { type: "web", title: "Counted" })).body.data.id;
    expect(await moved()).toBe(true);
    const { pageId, versionId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/1" })
    ).body.data;
    expect(await moved()).toBe(true);
    await owner.post(`/api/projects/${projectId}/members`, { email: email("editor"), access: "edit" });
    expect(await moved()).toBe(true);
    // A comment without files changes no count; one holding a file does, and so does removing it.
    const plain = (
      await owner.post(`/api/versions/${versionId}/comments`, {
        dotPosition: { x: 0.5, y: 0.5 },
        deviceWidth: 1280,
        comment: "No files",
      })
    ).body.data;
    expect(await moved()).toBe(false);
    await db.execute(
      sql`update comment_entries set attachments = '[{"path":"attachments/x.png","size":10}]'::jsonb where comment_id = ${plain.id}`,
    );
    expect(await moved()).toBe(true);
    await db.execute(sql`delete from comments where id = ${plain.id}`);
    expect(await moved()).toBe(true);
    // Uploaded files on versions, and any page removal, cascades included.
    await db.execute(
      sql`update versions set file_key = 'uploads/x.png', file_bytes = 10 where id = ${versionId}`,
    );
    expect(await moved()).toBe(true);
    await db.execute(sql`update versions set status = 'ready' where id = ${versionId}`);
    expect(await moved()).toBe(false);
    await db.execute(sql`delete from pages where id = ${pageId}`);
    expect(await moved()).toBe(true);

    // A transfer moves both owners on.
    const other = await signUpVerified(t.url, t.inbox!, email("other"));
    const otherId = (await other.get("/api/me")).body.data.uid as string;
    const before = await revisionOf(db, otherId);
    await db.execute(sql`update projects set owner_id = ${otherId} where id = ${projectId}`);
    expect(await moved()).toBe(true);
    expect(await revisionOf(db, otherId)).toBeGreaterThan(before);
    await db.execute(sql`delete from projects where id = ${projectId}`);
    expect(await revisionOf(db, otherId)).toBeGreaterThan(before + 1);
  });

  it("moves when a bug report's files come or go, and /api/me's storage follows", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, email("tracker"));
    await setLimits(t, owner, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
    const ownerId = (await owner.get("/api/me")).body.data.uid as string;
    const used = async () => (await owner.get("/api/me")).body.data.storage.browse.used as number;
    const projectId = (await owner.post("/api/projects", { type: "browse", title: "Bugs" })).body.data.id;
    const before = await used();
    let last = await revisionOf(db, ownerId);
    const moved = async () => {
      const now = await revisionOf(db, ownerId);
      const changed = now > last;
      last = now;
      return changed;
    };
    await db.execute(
      sql`insert into tickets (id, project_id, number, sort_key, intake, title, screenshot_key, screenshot_bytes)
          values ('tk-counted', ${projectId}, 1, 'a0', 'triage', 'Report', ${`tickets/${projectId}/${"d".repeat(64)}.png`}, 4000)`,
    );
    expect(await moved()).toBe(true);
    // The write was made outside a request: /api/me follows once the user row's announcement arrives.
    await expect.poll(used).toBe(before + 4000);
    await db.execute(
      sql`insert into ticket_entries (id, ticket_id, body) values ('te-plain', 'tk-counted', 'No files')`,
    );
    expect(await moved()).toBe(false);
    await db.execute(
      sql`insert into ticket_entries (id, ticket_id, body, attachments) values ('te-file', 'tk-counted', 'A file', '[{"path":"attachments/y.png","size":10}]'::jsonb)`,
    );
    expect(await moved()).toBe(true);
    await db.execute(sql`delete from tickets where id = 'tk-counted'`);
    expect(await moved()).toBe(true);
    await expect.poll(used).toBe(before);
  });

  it("serves counts that follow the user's own writes at once, and concurrent writes each count", async () => {
    const owner = await signUpVerified(t.url, t.inbox!, email("counts"));
    await setLimits(t, owner, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
    const counters = async () => (await owner.get("/api/me")).body.data.counters;
    expect((await counters()).projectsCount).toBe(0);
    const [a, b] = await Promise.all(
      ["A", "B"].map(
        async (title) => (await owner.post("/api/projects", { type: "web", title })).body.data.id as string,
      ),
    );
    expect((await counters()).projectsCount).toBe(2);
    await Promise.all(
      [a, b, a, b].map((projectId, i) =>
        owner.post(`/api/projects/${projectId}/pages`, { url: `https://example.com/${i}` }),
      ),
    );
    expect(await counters()).toMatchObject({ projectsCount: 2, projectPagesCount: 4 });
    expect((await owner.delete(`/api/projects/${a}`)).status).toBe(200);
    expect(await counters()).toMatchObject({ projectsCount: 1, projectPagesCount: 2 });
  });
});

describe.runIf(defaultDriver() === "postgres")("counters across two server processes", () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, close } = await startTwoApps());
  });
  afterAll(() => close());

  it("a member's write on one process reaches the owner's counters read on the other", async () => {
    const memberAddress = email("member");
    const [owner, member] = await Promise.all([
      signUpVerified(a.url, a.inbox!, email("owner")),
      signUpVerified(a.url, a.inbox!, memberAddress),
    ]);
    await setLimits(a, owner, { web: { projects: -1, pages: -1 }, browse: { projects: -1, pages: -1 } });
    const projectId = (await owner.post("/api/projects", { type: "web", title: "Shared" })).body.data.id;
    await owner.post(`/api/projects/${projectId}/members`, { email: memberAddress, access: "edit" });
    const ownerOnB = Object.assign(Object.create(Object.getPrototypeOf(owner)), owner, {
      baseUrl: b.url,
    }) as ApiClient;
    const pagesOnB = async () => (await ownerOnB.get("/api/me")).body.data.counters.projectPagesCount;
    expect(await pagesOnB()).toBe(0);
    expect(await pagesOnB()).toBe(0);

    // The member adds a page on A: the owner's revision moves in that transaction, B hears the user change.
    expect(
      (await member.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/m" })).status,
    ).toBe(202);
    await expect.poll(pagesOnB, { timeout: 2000 }).toBe(1);
    expect((await owner.get("/api/me")).body.data.counters.projectPagesCount).toBe(1);
  });
});
