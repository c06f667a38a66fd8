import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { settledGet, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;

describe.each(routeDrivers())("sharing, roles and approvals (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let ownerEmail: string;

  const newProject = async (title = "Shared") =>
    (await owner.post("/api/projects", { title })).body.data.id as string;
  const person = async (name: string) => {
    const address = email(name);
    const client = await signUpVerified(t.url, t.inbox!, address);
    const uid = (await client.get("/api/me")).body.data.uid as string;
    return { client, address, uid };
  };
  const members = async (projectId: string, client = owner) =>
    (await client.get(`/api/projects/${projectId}/members`)).body.data as {
      id: string | null;
      uid: string | null;
      email: string;
      access: string;
      isPending: boolean;
      isApprover: boolean;
      abilities: { toggleApprover: boolean };
    }[];

  beforeAll(async () => {
    t = await startTestApp({ driver });
    ownerEmail = email("owner");
    owner = await signUpVerified(t.url, t.inbox!, ownerEmail);
  });
  afterAll(() => t.close());

  it("shares with an existing user who then sees the project with comment access only", async () => {
    const projectId = await newProject();
    await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/a" });
    const bob = await person("bob");
    const shared = await owner.post(`/api/projects/${projectId}/members`, {
      email: bob.address.toUpperCase(),
      access: "comment",
    });
    expect(shared.status).toBe(201);
    expect(shared.body.message).toBe("Project shared with the user.");
    const mail = await t.inbox!.waitFor(
      (m) => m.to.includes(bob.address) && m.subject.includes("invited you to a project"),
    );
    expect(mail.link).toBe(`${t.url}/project/${projectId}`);

    const listed = (await bob.client.get("/api/projects")).body.data.find(
      (p: { id: string }) => p.id === projectId,
    );
    expect(listed).toMatchObject({
      access: "comment",
      abilities: { read: true, addPages: false, manageMembers: false },
    });
    const detail = (await bob.client.get(`/api/projects/${projectId}`)).body.data;
    expect(detail.pages).toHaveLength(1);

    expect(
      (await bob.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/b" })).status,
    ).toBe(403);
    expect(
      (await bob.client.post(`/api/projects/${projectId}/members`, { email: email("x"), access: "view" }))
        .status,
    ).toBe(403);
    expect((await bob.client.patch(`/api/projects/${projectId}`, { title: "Mine" })).status).toBe(403);
    expect((await owner.get(`/api/projects/${projectId}`)).body.data.title).toBe("Shared");
  });

  it("invites an unknown e-mail: the mail arrives, and the invitee sees the project after signing up", async () => {
    const projectId = await newProject("Invite");
    const invitee = email("invitee");
    const shared = await owner.post(`/api/projects/${projectId}/members`, { email: invitee, access: "edit" });
    expect(shared.body.data.isPending).toBe(true);
    const mail = await t.inbox!.waitFor((m) => m.to.includes(invitee));
    expect(mail.text).toContain("Sign up and open the project");
    expect((await members(projectId)).find((m) => m.email === invitee)).toMatchObject({
      isPending: true,
      uid: null,
    });

    const client = await signUpVerified(t.url, t.inbox!, invitee);
    const project = (await client.get(`/api/projects/${projectId}`)).body.data;
    expect(project).toMatchObject({ access: "edit", abilities: { addPages: true } });
    expect((await members(projectId)).find((m) => m.email === invitee)).toMatchObject({ isPending: false });
  });

  it("never shares with one's own e-mail, and validates input", async () => {
    const projectId = await newProject();
    expect(
      (await owner.post(`/api/projects/${projectId}/members`, { email: ownerEmail, access: "edit" })).status,
    ).toBe(400);
    expect(
      (await owner.post(`/api/projects/${projectId}/members`, { email: "nope", access: "edit" })).status,
    ).toBe(400);
    expect(
      (await owner.post(`/api/projects/${projectId}/members`, { email: email("z"), access: "owner" })).status,
    ).toBe(400);
    expect(await members(projectId)).toHaveLength(1);
  });

  it("lets a viewer read but change nothing", async () => {
    const projectId = await newProject();
    const viewer = await person("viewer");
    await owner.post(`/api/projects/${projectId}/members`, { email: viewer.address, access: "view" });
    const project = (await viewer.client.get(`/api/projects/${projectId}`)).body.data;
    expect(project.access).toBe("view");
    expect(Object.entries(project.abilities).filter(([, allowed]) => allowed)).toEqual([["read", true]]);
    expect((await viewer.client.delete(`/api/projects/${projectId}`)).status).toBe(403);
  });

  it("tells an outsider the project is not accessible, and a missing one that it is not found", async () => {
    const projectId = await newProject("Private");
    const outsider = await person("outsider-msg");
    const hidden = await outsider.client.get(`/api/projects/${projectId}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({
      code: "project-not-accessible",
      message: "Project is not found or accessible. Redirecting to all projects.",
    });
    const missing = await outsider.client.get("/api/projects/no-such-project");
    expect(missing.body).toMatchObject({ code: "project-not-found", message: "Project not found." });
  });

  it("changes access, removes people, and lets a member leave", async () => {
    const projectId = await newProject();
    const [carol, dave] = [await person("carol"), await person("dave")];
    await owner.post(`/api/projects/${projectId}/members`, { email: carol.address, access: "view" });
    await owner.post(`/api/projects/${projectId}/members`, { email: dave.address, access: "comment" });
    const entry = (uid: string) => members(projectId).then((list) => list.find((m) => m.uid === uid)!);

    const updated = await owner.patch(`/api/projects/${projectId}/members/${(await entry(carol.uid)).id}`, {
      access: "edit",
    });
    expect(updated.body.message).toBe("User access updated.");
    expect((await entry(carol.uid)).access).toBe("edit");

    const aboutProject = async (client: ApiClient) =>
      ((await settledGet(t, client, "/api/notifications")).body.data as { projectId: string }[]).filter(
        (item) => item.projectId === projectId,
      );
    expect(await aboutProject(carol.client)).toHaveLength(1); // "shared a project with you"
    const removed = await owner.delete(`/api/projects/${projectId}/members/${(await entry(carol.uid)).id}`);
    expect(removed.body.message).toBe("User removed from the project.");
    expect((await carol.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect(await aboutProject(carol.client)).toEqual([]); // nothing left that opens a project she cannot see

    const daveEntry = await entry(dave.uid);
    expect(await aboutProject(dave.client)).toHaveLength(1);
    const left = await dave.client.delete(`/api/projects/${projectId}/members/${daveEntry.id}`);
    expect(left.body.message).toBe("You have successfully removed yourself from the project.");
    expect(await aboutProject(dave.client)).toEqual([]);
    expect(await members(projectId)).toHaveLength(1);
  });

  it("sends each person's abilities as the reader's policy allows, and refuses what they do not offer", async () => {
    const projectId = await newProject();
    const [ed, vi] = await Promise.all([person("ed"), person("vi")]);
    await owner.post(`/api/projects/${projectId}/members`, { email: ed.address, access: "edit" });
    await owner.post(`/api/projects/${projectId}/members`, { email: vi.address, access: "view" });
    await owner.post(`/api/projects/${projectId}/members`, { email: email("invited"), access: "view" });
    type Row = {
      uid: string | null;
      id: string | null;
      isPending: boolean;
      abilities: Record<string, boolean>;
    };
    const asEditor = (await ed.client.get(`/api/projects/${projectId}/members`)).body.data as Row[];
    const row = (uid: string | null) => asEditor.find((m) => m.uid === uid)!;
    const ownerUid = (await owner.get("/api/me")).body.data.uid;
    expect(row(ownerUid).abilities).toEqual({
      changeAccess: false,
      remove: false,
      leave: false,
      makeOwner: false,
      toggleApprover: true,
    });
    expect(row(ed.uid).abilities).toMatchObject({
      changeAccess: false,
      remove: false,
      leave: true,
      makeOwner: false,
    });
    expect(row(vi.uid).abilities).toMatchObject({
      changeAccess: true,
      remove: true,
      leave: false,
      makeOwner: false,
    });
    expect(asEditor.find((m) => m.isPending)!.abilities).toMatchObject({
      changeAccess: true,
      toggleApprover: false,
    });
    const asOwner = (await owner.get(`/api/projects/${projectId}/members`)).body.data as Row[];
    expect(asOwner.find((m) => m.uid === vi.uid)!.abilities.makeOwner).toBe(true);
    const asViewer = (await vi.client.get(`/api/projects/${projectId}/members`)).body.data as Row[];
    expect(asViewer.every((m) => !m.abilities.changeAccess && !m.abilities.remove)).toBe(true);

    // The editor is offered no access control on their own row; the server refuses it too.
    const own = await ed.client.patch(`/api/projects/${projectId}/members/${row(ed.uid).id}`, {
      access: "view",
    });
    expect(own.status).toBe(403);
    expect((await members(projectId)).find((m) => m.uid === ed.uid)!.access).toBe("edit");
  });

  it("transfers ownership; the old owner keeps edit access", async () => {
    const projectId = await newProject("Transfer");
    const erin = await person("erin");
    const outsider = await person("outsider");
    expect((await owner.post(`/api/projects/${projectId}/transfer`, { to: outsider.uid })).status).toBe(409);
    await owner.post(`/api/projects/${projectId}/members`, { email: erin.address, access: "edit" });
    expect((await erin.client.post(`/api/projects/${projectId}/transfer`, { to: erin.uid })).status).toBe(
      403,
    );

    expect((await owner.post(`/api/projects/${projectId}/transfer`, { to: erin.uid })).status).toBe(200);
    expect((await erin.client.get(`/api/projects/${projectId}`)).body.data.access).toBe("owner");
    const mine = (await owner.get(`/api/projects/${projectId}`)).body.data;
    expect(mine).toMatchObject({
      access: "edit",
      owner: erin.uid,
      abilities: { delete: false, transfer: false },
    });
  });

  it("chooses approvers, mails the new approver, and lets approvers toggle page approval", async () => {
    const projectId = await newProject("Approvals");
    const { pageId } = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/a" })
    ).body.data;
    const [frank, gina] = [await person("frank"), await person("gina")];
    await owner.post(`/api/projects/${projectId}/members`, { email: frank.address, access: "comment" });
    await owner.post(`/api/projects/${projectId}/members`, { email: gina.address, access: "comment" });

    expect((await gina.client.put(`/api/pages/${pageId}/approval`, { approved: true })).status).toBe(403);
    const toggled = await owner.put(`/api/projects/${projectId}/approvers/${frank.uid}`, {
      isApprover: true,
    });
    expect(toggled.body.message).toBe("Project approver updated.");
    const mail = await t.inbox!.waitFor(
      (m) => m.to.includes(frank.address) && m.subject.includes("approver"),
    );
    expect(mail.text).toContain("Test User made you an approver");
    expect((await members(projectId)).find((m) => m.uid === frank.uid)?.isApprover).toBe(true);

    const approved = await frank.client.put(`/api/pages/${pageId}/approval`, { approved: true });
    expect(approved.body.message).toBe("This page is marked as approved");
    expect(approved.body.data.isApproved).toMatchObject({ uid: frank.uid });
    const unapproved = await owner.put(`/api/pages/${pageId}/approval`, { approved: false });
    expect(unapproved.body.message).toBe("This page is marked as not approved");
    expect(unapproved.body.data.isApproved).toBe(false);

    const selfMails = t.inbox!.mails.length;
    await owner.put(`/api/projects/${projectId}/approvers/${(await owner.get("/api/me")).body.data.uid}`, {
      isApprover: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.inbox!.mails.length).toBe(selfMails);
  });

  it("offers no approvers on a bug-tracking project (they approve website pages) and refuses to make one", async () => {
    const projectId = (await owner.post("/api/projects", { title: "Bugs", type: "browse" })).body.data.id;
    const hank = await person("hank");
    await owner.post(`/api/projects/${projectId}/members`, { email: hank.address, access: "comment" });
    expect((await owner.get(`/api/projects/${projectId}`)).body.data.abilities.manageApprovers).toBe(false);
    const row = (await members(projectId)).find((m) => m.uid === hank.uid);
    expect(row?.abilities.toggleApprover).toBe(false);
    const refused = await owner.put(`/api/projects/${projectId}/approvers/${hank.uid}`, { isApprover: true });
    expect(refused.status).toBe(403);
    expect((await members(projectId)).find((m) => m.uid === hank.uid)?.isApprover).toBe(false);
  });

  it("serves the public link exactly as its settings allow, and nothing once it is off", async () => {
    const projectId = await newProject("Public");
    const first = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/one" }))
      .body.data;
    await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/two" });
    const v2 = (await owner.post(`/api/pages/${first.pageId}/versions`, {})).body.data;
    const visitor = new ApiClient(t.url);
    expect((await visitor.get(`/api/share/${projectId}`)).status).toBe(404);

    await owner.patch(`/api/projects/${projectId}/sharing`, { public: true });
    expect((await owner.get(`/api/projects/${projectId}`)).body.data.sharing).toMatchObject({
      public: true,
      canComment: true,
    });
    let shared = (await visitor.get(`/api/share/${projectId}`)).body.data;
    expect(shared).toMatchObject({ access: "comment", title: "Public" });
    expect(shared.pages).toHaveLength(2);
    expect(shared.pages[0].versions).toHaveLength(2);

    await owner.patch(`/api/projects/${projectId}/sharing`, {
      showAllPages: false,
      showPageVersions: false,
      canComment: false,
    });
    shared = (await visitor.get(`/api/share/${projectId}`)).body.data;
    expect(shared.access).toBe("view");
    expect(shared.pages.map((p: { url: string }) => p.url)).toEqual(["https://example.com/one"]);
    expect(shared.pages[0].versions.map((v: { id: string }) => v.id)).toEqual([v2.id]);
    expect((await visitor.get(`/api/share/${projectId}/versions/${first.versionId}/view`)).status).toBe(404);
    expect((await visitor.get(`/api/share/${projectId}/versions/${v2.id}/view`)).status).toBe(200);

    await owner.patch(`/api/projects/${projectId}/sharing`, { public: false });
    const off = await visitor.get(`/api/share/${projectId}`);
    expect(off.status).toBe(404);
    expect(off.body.message).toBe("Project is not found or accessible. Redirecting to all projects.");
    expect((await owner.patch(`/api/projects/${projectId}/sharing`, { public: "yes" })).status).toBe(400);
  });

  it("opens the demo project through /share/demo for anyone", async () => {
    const demo = (await new ApiClient(t.url).get("/api/share/demo")).body.data;
    expect(demo).toMatchObject({ id: "demo", title: "Redline demo", type: "demo", access: "comment" });
    expect(demo.pages).toHaveLength(1);
    const view = await new ApiClient(t.url).get(
      `/api/share/demo/versions/${demo.pages[0].versions[0].id}/view`,
    );
    expect((await fetch(view.body.data.contentUrl)).headers.get("content-type")).toBe("image/png");
    const visitor = await person("demo-visitor");
    expect((await visitor.client.post("/api/share/demo/join")).body.data.access).toBe("comment");
    expect((await visitor.client.get("/api/projects")).body.data).toEqual([]);
  });

  it("adds a signed-in visitor arriving by the link with comment access", async () => {
    const projectId = await newProject("Joinable");
    const henry = await person("henry");
    expect((await henry.client.post(`/api/share/${projectId}/join`)).status).toBe(404);
    await owner.patch(`/api/projects/${projectId}/sharing`, { public: true });
    expect((await henry.client.post(`/api/share/${projectId}/join`)).body.data.access).toBe("comment");
    expect((await henry.client.get(`/api/projects/${projectId}`)).body.data.access).toBe("comment");
    expect((await owner.post(`/api/share/${projectId}/join`)).body.data.access).toBe("owner");
  });
});
