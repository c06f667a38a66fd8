import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teamMembers, teams } from "../../db/schema/index.ts";
import { type ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { uniqueEmail as email, expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { routeIt } from "../../testing/route-it.ts";
import { settledGet, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

describe.each(drivers())("teams (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;

  const person = (name: string, displayName?: string) => signUpPerson(t, name, displayName);
  const newTeam = async (name?: string, product = "web") =>
    (await owner.client.post("/api/teams", { product, ...(name && { name }) })).body.data.id as string;
  const detail = async (teamId: string, client = owner.client) =>
    (await client.get(`/api/teams/${teamId}`)).body.data;
  /** A team with a manager, a member and a collaborator who have accounts. */
  const staffedTeam = async () => {
    const teamId = await newTeam("Staffed");
    const [manager, member, collaborator] = [
      await person("manager"),
      await person("member"),
      await person("collaborator"),
    ];
    for (const [who, access] of [
      [manager, "manager"],
      [member, "member"],
      [collaborator, "collaborator"],
    ] as const)
      expect(
        (await owner.client.post(`/api/teams/${teamId}/members`, { email: who.address, access })).status,
      ).toBe(201);
    return { teamId, manager, member, collaborator };
  };
  const notificationsOf = async (client: ApiClient) =>
    (await settledGet(t, client, "/api/notifications")).body.data as {
      type: string;
      teamId: string | null;
      projectId: string | null;
      actor: { uid: string | null; displayName: string };
      context: { teamName?: string; access?: string };
    }[];
  /** Asserts a refused request: its status and code, and not a row changed. */
  const refused = (call: () => Promise<{ status: number; body: any }>, status: number, code?: string) =>
    expectRefused(t, call, status, code);

  beforeAll(async () => {
    t = await startTestApp({ driver });
    owner = await person("owner", "Ada Lovelace");
  });
  afterAll(() => t.close());

  routeIt(driver)(
    "creates a team named after its owner, lists it by product and reads it with the owner's abilities",
    async () => {
      const created = await owner.client.post("/api/teams", { product: "web" });
      expect(created.status).toBe(201);
      expect(created.body.message).toBe("New team created.");
      expect(created.body.data).toMatchObject({
        name: "Ada Lovelace's Team",
        product: "web",
        ownerId: owner.uid,
        isDisabled: false,
        customBranding: false,
        theme: null,
        domain: null,
        role: "owner",
        abilities: {
          rename: true,
          addMembers: true,
          changeRoles: true,
          removeMembers: true,
          removeCollaborators: true,
          leave: false,
        },
      });
      const browse = await newTeam("Bugs", "browse");
      const web = (await owner.client.get("/api/teams?product=web")).body.data.map(
        (x: { id: string }) => x.id,
      );
      expect(web).toContain(created.body.data.id);
      expect(web).not.toContain(browse);
      const all = (await owner.client.get("/api/teams")).body.data.map((x: { id: string }) => x.id);
      expect(all).toEqual(expect.arrayContaining([created.body.data.id, browse]));
      expect((await owner.client.get("/api/teams?product=video")).status).toBe(400);

      const read = await detail(created.body.data.id);
      expect(read.members).toEqual([
        expect.objectContaining({
          id: null,
          uid: owner.uid,
          access: "owner",
          abilities: { changeRole: false, remove: false, leave: false },
        }),
      ]);
      expect(read.collaborators).toEqual([]);
    },
  );

  routeIt(driver)("renames a team (owner or manager), and tells its people's open screens", async () => {
    const { teamId, manager, member } = await staffedTeam();
    const socket = await openSocket(t, member.client);
    await socket.next((m) => m.type === "ready");
    const renamed = await manager.client.patch(`/api/teams/${teamId}`, { name: "  Design  " });
    expect(renamed.body).toMatchObject({
      data: { name: "Design", role: "manager" },
      message: "Team renamed.",
    });
    await socket.next(
      (m) => m.type === "event" && m.event.type === "teams.changed" && m.event.teamId === teamId,
    );
    socket.socket.close();
    await refused(() => member.client.patch(`/api/teams/${teamId}`, { name: "Mine" }), 403);
    await refused(() => owner.client.patch(`/api/teams/${teamId}`, { name: "   " }), 400);
  });

  routeIt(driver)(
    "adds an existing user at once: the team-invite mail naming who added them, an 'invited you to team' notification, the team in their list",
    async () => {
      const teamId = await newTeam("Studio");
      const bob = await person("bob");
      const added = await owner.client.post(`/api/teams/${teamId}/members`, {
        email: bob.address.toUpperCase(),
        access: "member",
      });
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ data: { isPending: false }, message: "Member added to the team." });
      const mail = await t.inbox!.waitFor((m) => m.to.includes(bob.address) && m.subject.includes("Studio"));
      // SPEC §7 `team-invite`: the team admin, the team, the access, and a link (they have an account).
      expect(mail.subject).toBe("Ada Lovelace invited you to the team “Studio”");
      expect(mail.text).toContain(
        "Ada Lovelace invited you to join the team “Studio” on Redline as a member.",
      );
      expect(mail.text).toContain("Open the team");
      expect(mail.link).toBe(`${t.url}/team/${teamId}`);

      const [notification] = await notificationsOf(bob.client);
      expect(notification).toMatchObject({
        type: "team-member-add",
        teamId,
        projectId: null,
        actor: { uid: owner.uid, displayName: "Ada Lovelace" },
        context: { teamName: "Studio", access: "member" },
      });
      expect(await notificationsOf(owner.client)).not.toContainEqual(
        expect.objectContaining({ type: "team-member-add", teamId }),
      );
      const listed = (await bob.client.get("/api/teams")).body.data;
      expect(listed).toEqual([
        expect.objectContaining({
          id: teamId,
          role: "member",
          abilities: expect.objectContaining({ rename: false, addMembers: false, leave: true }),
        }),
      ]);
      const read = await detail(teamId, bob.client);
      expect(read.members.map((m: { uid: string; access: string }) => [m.uid, m.access])).toEqual([
        [owner.uid, "owner"],
        [bob.uid, "member"],
      ]);
      expect(read.members[1].abilities).toEqual({ changeRole: false, remove: false, leave: true });

      // A collaborator is not a member: SPEC §8's text for sharing with one, not 'Member added'.
      const carol = await person("carol");
      const shared = await owner.client.post(`/api/teams/${teamId}/members`, {
        email: carol.address,
        access: "collaborator",
      });
      expect(shared.body).toMatchObject({
        data: { isPending: false },
        message: "Project shared with the user.",
      });
    },
  );

  routeIt(driver)(
    "invites an unknown address: the team-invite mail with a sign-up link, and a member once they sign up",
    async () => {
      const teamId = await newTeam("Agency");
      const invitee = email("invitee");
      const invited = await owner.client.post(`/api/teams/${teamId}/members`, {
        email: invitee,
        access: "manager",
      });
      expect(invited.body).toMatchObject({ data: { isPending: true }, message: "Invitation sent." });
      const mail = await t.inbox!.waitFor((m) => m.to.includes(invitee));
      expect(mail.subject).toBe("Ada Lovelace invited you to the team “Agency”");
      expect(mail.text).toContain("as a manager");
      expect(mail.link).toBe(`${t.url}/signup?goto=%2Fteam%2F${teamId}`);
      expect((await detail(teamId)).members[1]).toMatchObject({ uid: null, email: invitee, isPending: true });

      const client = await signUpVerified(t.url, t.inbox!, invitee);
      const joined = await detail(teamId, client);
      expect(joined).toMatchObject({ role: "manager", abilities: { addMembers: true } });
      expect(joined.members[1]).toMatchObject({ email: invitee, isPending: false, access: "manager" });
    },
  );

  routeIt(driver)(
    "changes a role: the member is told (notification and the team-access mail), and a manager may not touch the owner or themselves",
    async () => {
      const { teamId, manager, member } = await staffedTeam();
      const entry = async (uid: string) =>
        [...(await detail(teamId)).members, ...(await detail(teamId)).collaborators].find(
          (m: { uid: string }) => m.uid === uid,
        );
      const memberEntry = await entry(member.uid);
      const changed = await manager.client.patch(`/api/teams/${teamId}/members/${memberEntry.id}`, {
        access: "collaborator",
      });
      expect(changed.body.message).toBe("User access updated.");
      expect((await detail(teamId)).collaborators.map((m: { uid: string }) => m.uid)).toContain(member.uid);
      expect((await notificationsOf(member.client))[0]).toMatchObject({
        type: "team-member-access",
        teamId,
        actor: { uid: manager.uid },
        context: { access: "collaborator" },
      });
      // SPEC §7 `team-access`: the team, the new access, a link.
      const accessMail = await t.inbox!.waitFor(
        (m) => m.to.includes(member.address) && m.subject.includes("access to the team"),
      );
      expect(accessMail.subject).toBe("Your access to the team “Staffed” changed");
      expect(accessMail.text).toContain("You are now a collaborator in the team “Staffed” on Redline.");
      expect(accessMail.link).toBe(`${t.url}/team/${teamId}`);
      // The same access again changes nothing, and mails nothing: the next mail is the next change's.
      await manager.client.patch(`/api/teams/${teamId}/members/${memberEntry.id}`, {
        access: "collaborator",
      });
      await manager.client.patch(`/api/teams/${teamId}/members/${memberEntry.id}`, { access: "member" });
      await t.inbox!.waitFor((m) => m.to.includes(member.address) && m.text.includes("now a member in"));
      expect(
        t.inbox!.mails.filter(
          (m) => m.to.includes(member.address) && m.subject.includes("access to the team"),
        ),
      ).toHaveLength(2);

      await refused(
        () => manager.client.patch(`/api/teams/${teamId}/members/${owner.uid}`, { access: "member" }),
        403,
        "team-owner",
      );
      await refused(
        () => manager.client.patch(`/api/teams/${teamId}/members/${manager.uid}`, { access: "member" }),
        403,
        "team-self",
      );
      await refused(
        () => owner.client.patch(`/api/teams/${teamId}/members/${memberEntry.id}`, { access: "owner" }),
        400,
      );
      await refused(
        () => member.client.patch(`/api/teams/${teamId}/members/${manager.uid}`, { access: "member" }),
        403,
      );
    },
  );

  routeIt(driver)(
    "removes members and collaborators from their own lists only; never the owner",
    async () => {
      const { teamId, manager, member, collaborator } = await staffedTeam();
      await refused(
        () => manager.client.delete(`/api/teams/${teamId}/members/${owner.uid}`),
        403,
        "team-owner",
      );
      await refused(
        () => manager.client.delete(`/api/teams/${teamId}/collaborators/${member.uid}`),
        404,
        "team-collaborator-not-found",
      );
      await refused(
        () => manager.client.delete(`/api/teams/${teamId}/members/${collaborator.uid}`),
        404,
        "team-member-not-found",
      );
      await refused(() => member.client.delete(`/api/teams/${teamId}/members/${manager.uid}`), 403);

      const removed = await manager.client.delete(`/api/teams/${teamId}/members/${member.uid}`);
      expect(removed.body.message).toBe("User removed from the team.");
      const gone = await collaborator.client.get(`/api/teams/${teamId}`);
      expect(gone.status).toBe(200);
      const dropped = await owner.client.delete(`/api/teams/${teamId}/collaborators/${collaborator.uid}`);
      expect(dropped.body.message).toBe("Collaborator removed from the team.");
      expect((await member.client.get(`/api/teams/${teamId}`)).status).toBe(404);
      expect((await collaborator.client.get(`/api/teams/${teamId}`)).status).toBe(404);
      // What they were told about the team went with their place in it.
      expect((await notificationsOf(member.client)).filter((n) => n.teamId === teamId)).toEqual([]);
      const left = await detail(teamId);
      expect(left.members.map((m: { uid: string }) => m.uid)).toEqual([owner.uid, manager.uid]);
      expect(left.collaborators).toEqual([]);
    },
  );

  routeIt(driver)(
    "lets any member leave ('You left the team.'), tells the owner, and refuses the owner",
    async () => {
      const { teamId, member } = await staffedTeam();
      const left = await member.client.post(`/api/teams/${teamId}/leave`);
      expect(left.status).toBe(200);
      expect(left.body.message).toBe("You left the team.");
      expect((await member.client.get("/api/teams")).body.data).toEqual([]);
      expect((await notificationsOf(owner.client))[0]).toMatchObject({
        type: "team-member-left",
        teamId,
        actor: { uid: member.uid },
      });
      const refusal = await refused(
        () => owner.client.post(`/api/teams/${teamId}/leave`),
        403,
        "team-owner-cannot-leave",
      );
      expect(refusal.body.message).toBe("You own this team: it cannot be left by its owner.");
    },
  );

  routeIt(driver)("refuses changes to a disabled team, except leaving", async () => {
    const { teamId, manager, member } = await staffedTeam();
    await t.ctx.database.db.update(teams).set({ isDisabled: true }).where(eq(teams.id, teamId));
    expect((await detail(teamId, manager.client)).abilities).toMatchObject({
      addMembers: false,
      rename: false,
      leave: true,
    });
    await refused(
      () => owner.client.post(`/api/teams/${teamId}/members`, { email: email("late"), access: "member" }),
      403,
      "team-disabled",
    );
    await refused(() => manager.client.patch(`/api/teams/${teamId}`, { name: "X" }), 403, "team-disabled");
    await refused(
      () => owner.client.delete(`/api/teams/${teamId}/members/${member.uid}`),
      403,
      "team-disabled",
    );
    expect((await member.client.post(`/api/teams/${teamId}/leave`)).body.message).toBe("You left the team.");
  });

  routeIt(driver)("refuses bad input with a clear error and changes nothing", async () => {
    const { teamId, member } = await staffedTeam();
    const invite = (body: unknown, client = owner.client) =>
      client.post(`/api/teams/${teamId}/members`, body);
    await refused(() => invite({ email: "not an address", access: "member" }), 400);
    await refused(() => invite({ email: email("x"), access: "owner" }), 400);
    await refused(
      () => invite({ email: owner.address.toUpperCase(), access: "member" }),
      400,
      "team-invite-self",
    );
    await refused(() => invite({ email: member.address, access: "manager" }), 409, "team-member-exists");
    await refused(() => invite({ email: email("y"), access: "member" }, member.client), 403);
    await refused(() => owner.client.post("/api/teams", { product: "video" }), 400);
    await refused(() => owner.client.get("/api/teams/no-such-team"), 404, "team-not-accessible");
    const outsider = await person("outsider");
    const hidden = await refused(
      () => outsider.client.get(`/api/teams/${teamId}`),
      404,
      "team-not-accessible",
    );
    const missing = await outsider.client.get("/api/teams/no-such-team");
    expect(missing.body).toEqual(hidden.body);
    await refused(() => outsider.client.post(`/api/teams/${teamId}/leave`), 404);
    await refused(() => invite({ email: email("z"), access: "member" }, outsider.client), 404);

    const pending = email("pending");
    expect((await invite({ email: pending, access: "member" })).status).toBe(201);
    await refused(
      () => invite({ email: pending.toUpperCase(), access: "collaborator" }),
      409,
      "team-member-exists",
    );
  });

  it("makes one row of two invitations of one address at once", async () => {
    const teamId = await newTeam("Race");
    const address = email("race");
    const answers = await Promise.all(
      [1, 2].map(() =>
        owner.client.post(`/api/teams/${teamId}/members`, { email: address, access: "member" }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const rows = await t.ctx.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId));
    expect(rows).toHaveLength(1);
  });
});
