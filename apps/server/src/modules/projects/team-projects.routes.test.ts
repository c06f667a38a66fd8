import { TEAM_MESSAGES, TEAM_PROJECT_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams } from "../../db/schema/index.ts";
import type { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { settledGet, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

describe.each(routeDrivers())("team projects (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let manager: Person;
  let member: Person;
  let collaborator: Person;
  let stranger: Person;
  let teamId: string;

  const person = (name: string) => signUpPerson(t, name, name);
  const refused = (call: () => Promise<{ status: number; body: any }>, status: number, code?: string) =>
    expectRefused(t, call, status, code);
  /** A project the member creates in the team. */
  const teamProject = async (title = "Team site") => {
    const created = await member.client.post("/api/projects", { title, type: "web", teamId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data as { id: string; team: { id: string; name: string }; access: string };
  };
  const listed = async (client: ApiClient, team?: string) =>
    ((await client.get(`/api/projects${team ? `?teamId=${team}` : ""}`)).body.data as { id: string }[]).map(
      (project) => project.id,
    );

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [owner, manager, member, collaborator, stranger] = (await Promise.all(
      ["owner", "manager", "member", "collaborator", "stranger"].map(person),
    )) as [Person, Person, Person, Person, Person];
    teamId = (await owner.client.post("/api/teams", { product: "web", name: "Studio" })).body.data.id;
    for (const [who, access] of [
      [manager, "manager"],
      [member, "member"],
      [collaborator, "collaborator"],
    ] as const)
      expect(
        (await owner.client.post(`/api/teams/${teamId}/members`, { email: who.address, access })).status,
      ).toBe(201);
  });
  afterAll(() => t.close());

  it("gives every member of the team edit on a team project, its creator staying the owner", async () => {
    const project = await teamProject();
    expect(project.team).toEqual({ id: teamId, name: "Studio" });
    expect(project.access).toBe("owner");
    for (const who of [owner, manager]) {
      const read = await who.client.get(`/api/projects/${project.id}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ access: "edit", team: { id: teamId } });
      expect(read.body.data.abilities).toMatchObject({ update: true, addPages: true, delete: false });
      const renamed = await who.client.patch(`/api/projects/${project.id}`, { title: `By ${who.uid}` });
      expect(renamed.status).toBe(200);
    }
    // The active team's projects are listed beside one's own; another team's are not.
    expect(await listed(owner.client, teamId)).toContain(project.id);
    expect(await listed(owner.client)).not.toContain(project.id);
    expect(await listed(stranger.client, teamId)).not.toContain(project.id);
    await refused(() => stranger.client.get(`/api/projects/${project.id}`), 404, "project-not-accessible");
  });

  it("lets a collaborator in only once toggled into the project, and then only to comment", async () => {
    const project = await teamProject("Collaborated");
    await refused(() => collaborator.client.get(`/api/projects/${project.id}`), 404);
    expect(await listed(collaborator.client, teamId)).not.toContain(project.id);

    const before = (await manager.client.get(`/api/projects/${project.id}/collaborators`)).body.data;
    expect(before).toEqual([expect.objectContaining({ uid: collaborator.uid, enabled: false })]);
    const toggled = await manager.client.put(
      `/api/projects/${project.id}/collaborators/${collaborator.uid}`,
      {
        enabled: true,
      },
    );
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    expect(toggled.body.message).toBe(TEAM_PROJECT_MESSAGES.collaboratorAdded);

    const read = await collaborator.client.get(`/api/projects/${project.id}`);
    expect(read.body.data.access).toBe("comment");
    expect(read.body.data.abilities).toMatchObject({ comment: true, update: false, addPages: false });
    expect(await listed(collaborator.client)).toContain(project.id);
    await refused(() => collaborator.client.patch(`/api/projects/${project.id}`, { title: "No" }), 403);
    // A collaborator cannot toggle others in, nor themselves.
    await refused(
      () =>
        collaborator.client.put(`/api/projects/${project.id}/collaborators/${collaborator.uid}`, {
          enabled: false,
        }),
      403,
    );

    const off = await member.client.put(`/api/projects/${project.id}/collaborators/${collaborator.uid}`, {
      enabled: false,
    });
    expect(off.body.message).toBe(TEAM_PROJECT_MESSAGES.collaboratorRemoved);
    await refused(() => collaborator.client.get(`/api/projects/${project.id}`), 404);
  });

  it("refuses to toggle in someone who is not one of the team's collaborators, or on a project without a team", async () => {
    const project = await teamProject("Strict");
    await refused(
      () => member.client.put(`/api/projects/${project.id}/collaborators/${stranger.uid}`, { enabled: true }),
      404,
      "not-collaborator",
    );
    await refused(
      () => member.client.put(`/api/projects/${project.id}/collaborators/${manager.uid}`, { enabled: true }),
      404,
      "not-collaborator",
    );
    await refused(
      () =>
        member.client.put(`/api/projects/${project.id}/collaborators/${collaborator.uid}`, {
          enabled: "yes",
        }),
      400,
    );
    const own = (await stranger.client.post("/api/projects", { title: "Solo" })).body.data.id as string;
    await refused(
      () => stranger.client.put(`/api/projects/${own}/collaborators/${collaborator.uid}`, { enabled: true }),
      400,
      "project-without-team",
    );
    expect((await stranger.client.get(`/api/projects/${own}/collaborators`)).body.data).toEqual([]);
  });

  it("creates projects only in a team the creator is a member of, of the project's product", async () => {
    await refused(
      () => stranger.client.post("/api/projects", { title: "Intruder", teamId }),
      404,
      "team-not-accessible",
    );
    const refusedCollaborator = await refused(
      () => collaborator.client.post("/api/projects", { title: "Guest", teamId }),
      403,
      "team-collaborator",
    );
    expect(refusedCollaborator.body.message).toBe(TEAM_PROJECT_MESSAGES.notTeamMember);
    await refused(
      () => member.client.post("/api/projects", { title: "Bugs", type: "browse", teamId }),
      400,
      "team-wrong-product",
    );
    await refused(() => member.client.post("/api/projects", { title: "Bad", teamId: "" }), 400);
  });

  it("moves a project into a team and out of it, by its owner only", async () => {
    const own = (await manager.client.post("/api/projects", { title: "Moving" })).body.data.id as string;
    await refused(() => member.client.get(`/api/projects/${own}`), 404);
    const moved = await manager.client.patch(`/api/projects/${own}`, { teamId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      data: { team: { id: teamId } },
      message: TEAM_PROJECT_MESSAGES.moved,
    });
    expect((await member.client.get(`/api/projects/${own}`)).body.data.access).toBe("edit");
    // Members edit, but where the project belongs is its owner's call.
    await refused(() => member.client.patch(`/api/projects/${own}`, { teamId: null }), 403);
    await manager.client.put(`/api/projects/${own}/collaborators/${collaborator.uid}`, { enabled: true });
    const out = await manager.client.patch(`/api/projects/${own}`, { teamId: null });
    expect(out.body).toMatchObject({ data: { team: null }, message: TEAM_PROJECT_MESSAGES.leftTeam });
    await refused(() => member.client.get(`/api/projects/${own}`), 404);
    await refused(() => collaborator.client.get(`/api/projects/${own}`), 404);
  });

  it("takes a person leaving or removed from the team out of its projects", async () => {
    const leaver = await person("leaver");
    await owner.client.post(`/api/teams/${teamId}/members`, { email: leaver.address, access: "member" });
    const project = await teamProject("Left behind");
    expect((await leaver.client.get(`/api/projects/${project.id}`)).body.data.access).toBe("edit");
    const left = await leaver.client.post(`/api/teams/${teamId}/leave`);
    expect(left.body.message).toBe(TEAM_MESSAGES.left);
    await refused(() => leaver.client.get(`/api/projects/${project.id}`), 404);

    await member.client.put(`/api/projects/${project.id}/collaborators/${collaborator.uid}`, {
      enabled: true,
    });
    const people = (await owner.client.get(`/api/teams/${teamId}`)).body.data;
    expect(people.collaborators.map((c: { uid: string }) => c.uid)).toContain(collaborator.uid);
    expect((await owner.client.delete(`/api/teams/${teamId}/collaborators/${collaborator.uid}`)).status).toBe(
      200,
    );
    await refused(() => collaborator.client.get(`/api/projects/${project.id}`), 404);
    // Back as a collaborator, they start again untoggled.
    await owner.client.post(`/api/teams/${teamId}/members`, {
      email: collaborator.address,
      access: "collaborator",
    });
    await refused(() => collaborator.client.get(`/api/projects/${project.id}`), 404);
  });

  it("notifies the team of comments on a team project, and a collaborator only once switched in", async () => {
    const project = await teamProject("Talked about");
    const { versionId } = (
      await member.client.post(`/api/projects/${project.id}/pages`, { url: "https://example.com/talk" })
    ).body.data;
    const comment = (text: string) => ({ dotPosition: { x: 0.5, y: 0.5 }, deviceWidth: 1280, comment: text });
    const about = async (who: Person, commentId: string) =>
      (
        (await settledGet(t, who.client, "/api/notifications?limit=100")).body.data as {
          type: string;
          commentId: string;
        }[]
      )
        .filter((n) => n.commentId === commentId)
        .map((n) => n.type);
    const first = (await member.client.post(`/api/versions/${versionId}/comments`, comment("Look here"))).body
      .data.id as string;
    expect(await about(owner, first)).toEqual(["web-comment"]);
    expect(await about(manager, first)).toEqual(["web-comment"]);
    expect(await about(member, first)).toEqual([]);
    expect(await about(collaborator, first)).toEqual([]);
    expect(await about(stranger, first)).toEqual([]);

    await member.client.put(`/api/projects/${project.id}/collaborators/${collaborator.uid}`, {
      enabled: true,
    });
    const second = (await manager.client.post(`/api/versions/${versionId}/comments`, comment("And here")))
      .body.data.id as string;
    expect(await about(collaborator, second)).toEqual(["web-comment"]);
  });

  it("refuses a team project in a disabled team", async () => {
    const other = (await owner.client.post("/api/teams", { product: "web", name: "Off" })).body.data.id;
    await t.ctx.database.db.update(teams).set({ isDisabled: true }).where(eq(teams.id, other));
    await refused(
      () => owner.client.post("/api/projects", { title: "Nope", teamId: other }),
      403,
      "team-disabled",
    );
  });
});
