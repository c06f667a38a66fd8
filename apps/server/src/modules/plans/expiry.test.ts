/**
 * SPEC §4 project expiry: a webapp or browse project (here a bug tracker) past its two days is read-only — viewed, not added
 * to, by members and link guests alike — while its owner may still archive or delete it; an owner whose
 * projects become unlimited (an upgrade) revives it.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects } from "../../db/schema/index.ts";
import { testComment } from "../../testing/anchors.ts";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { mintPrivilegeToken } from "./grants.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const newComment = testComment;

describe.each(routeDrivers())("expired projects (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });
  afterAll(() => t.close());

  async function expiredProject() {
    const memberEmail = email("member");
    const [owner, member] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner")),
      signUpVerified(t.url, t.inbox!, memberEmail),
    ]);
    const created = (await owner!.post("/api/projects", { type: "browse", title: "Bugs" })).body.data;
    expect(created).toMatchObject({ isExpired: false });
    expect(created.expiresAt).not.toBeNull();
    await owner!.post(`/api/projects/${created.id}/members`, { email: memberEmail, access: "edit" });
    await owner!.patch(`/api/projects/${created.id}/sharing`, { public: true, canComment: true });
    const { versionId } = (
      await owner!.post(`/api/projects/${created.id}/pages`, { url: "https://example.com/a" })
    ).body.data;
    // Before it expires, the link's guests comment (the free bug tracker includes guest comments).
    const guestComment = await new ApiClient(t.url).request(
      "POST",
      `/api/share/${created.id}/versions/${versionId}/comments`,
      newComment("Before"),
      { "x-redline-guest": "guest__2__Gail__gail@example.com" },
    );
    expect(guestComment.status).toBe(201);
    await t.ctx.database.db
      .update(projects)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(projects.id, created.id));
    return {
      owner: owner!,
      member: member!,
      projectId: created.id as string,
      versionId: versionId as string,
    };
  }

  it("can be viewed but not added to, by members and guests", async () => {
    const { owner, member, projectId, versionId } = await expiredProject();
    const shown = (await owner.get(`/api/projects/${projectId}`)).body.data;
    expect(shown).toMatchObject({
      isExpired: true,
      access: "owner",
      abilities: {
        read: true,
        addPages: false,
        update: false,
        comment: false,
        manageMembers: false,
        archive: true,
        delete: true,
      },
    });
    for (const client of [owner, member]) {
      expect((await client.get(`/api/versions/${versionId}/comments`)).status).toBe(200);
      expect(
        (await client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/b" })).status,
      ).toBe(403);
      expect((await client.post(`/api/versions/${versionId}/comments`, newComment("Late"))).status).toBe(403);
      expect((await client.patch(`/api/projects/${projectId}`, { title: "Renamed" })).status).toBe(403);
    }
    const guest = new ApiClient(t.url);
    expect((await guest.get(`/api/share/${projectId}`)).status).toBe(200);
    const asGuest = await guest.request(
      "POST",
      `/api/share/${projectId}/versions/${versionId}/comments`,
      newComment("Guest"),
      { "x-redline-guest": "guest__2__Gail__gail@example.com" },
    );
    expect(asGuest.status).toBe(403);
    const listed = (await owner.get("/api/projects")).body.data.find(
      (p: { id: string }) => p.id === projectId,
    );
    expect(listed).toMatchObject({ isExpired: true, abilities: { addPages: false, delete: true } });
  });

  it("stays archivable and deletable by its owner", async () => {
    const { owner, member, projectId } = await expiredProject();
    expect((await member.patch(`/api/projects/${projectId}`, { isArchived: true })).status).toBe(403);
    expect((await owner.patch(`/api/projects/${projectId}`, { isArchived: true })).status).toBe(200);
    expect((await owner.request("DELETE", `/api/projects/${projectId}`)).status).toBe(200);
  });

  it("comes back to life when its owner's projects become unlimited", async () => {
    const { owner, projectId } = await expiredProject();
    const token = mintPrivilegeToken(t.ctx.config.authSecret, "pro");
    expect((await owner.post("/api/me/privilege", { plan: "pro", token })).status).toBe(200);
    const shown = (await owner.get(`/api/projects/${projectId}`)).body.data;
    expect(shown).toMatchObject({
      isExpired: false,
      expiresAt: null,
      abilities: { addPages: true, comment: true },
    });
    expect(
      (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/c" })).status,
    ).toBe(202);
  });
});
