import type { Board, RealtimeServerMessage } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browseLists } from "../../db/schema/index.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

describe.each(routeDrivers())("board lists (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let commenter: Person;
  let stranger: Person;
  let projectId: string;

  const board = async (as: Person = owner, query = ""): Promise<Board> =>
    (await as.client.get(`/api/projects/${projectId}/board${query}`)).body.data;
  const titles = async () => (await board()).lists.map((list) => list.title);
  const addList = async (title?: string) =>
    (await owner.client.post(`/api/projects/${projectId}/lists`, title === undefined ? {} : { title })).body
      .data;

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [owner, editor, commenter, stranger] = await Promise.all([
      signUpPerson(t, "owner", "Olivia Owner"),
      signUpPerson(t, "editor", "Eddie Editor"),
      signUpPerson(t, "commenter", "Carl Commenter"),
      signUpPerson(t, "stranger"),
    ]);
    projectId = (await owner.client.post("/api/projects", { title: "Bugs", type: "browse" })).body.data.id;
    await owner.client.post(`/api/projects/${projectId}/members`, { email: editor.address, access: "edit" });
    await owner.client.post(`/api/projects/${projectId}/members`, {
      email: commenter.address,
      access: "comment",
    });
  });
  afterAll(() => t.close());

  it("creates lists at the end ('Untitled' by default), renames and reorders them writing one row", async () => {
    const first = await addList();
    expect(first).toMatchObject({ title: "Untitled", projectId, abilities: { rename: true, delete: true } });
    const second = await addList("Doing");
    const third = await addList("Done");
    expect(await titles()).toEqual(["Untitled", "Doing", "Done"]);

    expect((await editor.client.patch(`/api/lists/${first.id}`, { title: "To do" })).body.data.title).toBe(
      "To do",
    );
    const keysBefore = await t.ctx.database.db
      .select({ id: browseLists.id, sortKey: browseLists.sortKey })
      .from(browseLists)
      .where(eq(browseLists.projectId, projectId));
    // "Done" between "To do" and "Doing": only its own key changes.
    const moved = await editor.client.patch(`/api/lists/${third.id}`, {
      move: { afterId: first.id, beforeId: second.id },
    });
    expect(moved.status).toBe(200);
    expect(await titles()).toEqual(["To do", "Done", "Doing"]);
    const keysAfter = await t.ctx.database.db
      .select({ id: browseLists.id, sortKey: browseLists.sortKey })
      .from(browseLists)
      .where(eq(browseLists.projectId, projectId));
    const changed = keysAfter.filter(
      (row) => keysBefore.find((old) => old.id === row.id)?.sortKey !== row.sortKey,
    );
    expect(changed.map((row) => row.id)).toEqual([third.id]);
    // To the front, then to the end.
    await owner.client.patch(`/api/lists/${second.id}`, { move: { afterId: null, beforeId: first.id } });
    expect(await titles()).toEqual(["Doing", "To do", "Done"]);
    await owner.client.patch(`/api/lists/${second.id}`, { move: { afterId: third.id, beforeId: null } });
    expect(await titles()).toEqual(["To do", "Done", "Doing"]);
  });

  it("deletes a list with its tickets", async () => {
    const list = await addList("Doomed");
    const ticket = (
      await owner.client.post(`/api/projects/${projectId}/tickets`, { listId: list.id, title: "Bye" })
    ).body.data;
    expect((await board()).tickets.map((card) => card.id)).toContain(ticket.id);
    expect((await owner.client.delete(`/api/lists/${list.id}`)).status).toBe(200);
    const after = await board();
    expect(after.lists.map((l) => l.id)).not.toContain(list.id);
    expect(after.tickets.map((card) => card.id)).not.toContain(ticket.id);
    expect((await owner.client.get(`/api/tickets/${ticket.id}`)).status).toBe(404);
  });

  it("lets commenters read the board but not change lists; strangers and web projects get 404", async () => {
    const list = await addList("Kept");
    const seen = await board(commenter);
    expect(seen.abilities).toEqual({
      createList: false,
      createTicket: false,
      triage: false,
      manageWidget: false,
    });
    expect(seen.lists.find((l) => l.id === list.id)?.abilities.rename).toBe(false);
    await expectRefused(t, () => commenter.client.post(`/api/projects/${projectId}/lists`, {}), 403);
    await expectRefused(t, () => commenter.client.patch(`/api/lists/${list.id}`, { title: "Mine" }), 403);
    await expectRefused(t, () => commenter.client.delete(`/api/lists/${list.id}`), 403);
    await expectRefused(t, () => stranger.client.get(`/api/projects/${projectId}/board`), 404);
    await expectRefused(t, () => stranger.client.post(`/api/projects/${projectId}/lists`, {}), 404);
    await expectRefused(t, () => stranger.client.delete(`/api/lists/${list.id}`), 404);

    const web = (await owner.client.post("/api/projects", { title: "Site" })).body.data.id;
    await expectRefused(t, () => owner.client.get(`/api/projects/${web}/board`), 404, "board-not-found");
    await expectRefused(t, () => owner.client.post(`/api/projects/${web}/lists`, {}), 404, "board-not-found");
  });

  it("refuses bad input and changes nothing", async () => {
    const [a, b] = [await addList("A"), await addList("B")];
    const other = (await owner.client.post("/api/projects", { title: "Other bugs", type: "browse" })).body
      .data.id;
    const foreign = (await owner.client.post(`/api/projects/${other}/lists`, {})).body.data;
    for (const [path, body] of [
      [`/api/lists/${a.id}`, {}],
      [`/api/lists/${a.id}`, { title: "" }],
      [`/api/lists/${a.id}`, { title: "x".repeat(101) }],
      [`/api/lists/${a.id}`, { move: { afterId: foreign.id, beforeId: null } }],
      [`/api/lists/${a.id}`, { move: { afterId: a.id, beforeId: b.id } }],
      [`/api/lists/${a.id}`, { move: { afterId: b.id } }],
      [`/api/lists/${a.id}`, { color: "red" }],
    ] as const)
      await expectRefused(t, () => owner.client.patch(path, body), 400);
    await expectRefused(t, () => owner.client.post(`/api/projects/${projectId}/lists`, { title: 5 }), 400);
    await expectRefused(t, () => owner.client.get(`/api/projects/${projectId}/board?due=someday`), 400);
  });

  it("brings list and ticket changes to another member's socket with that member's abilities", async () => {
    const tab = await openSocket(t, commenter.client);
    tab.send({ type: "join", projectId });
    await tab.next((m) => m.type === "joined");
    const isEvent = (type: string) => (m: RealtimeServerMessage) =>
      m.type === "event" && m.event.type === type;

    const list = await addList("Live");
    const listEvent = await tab.next(isEvent("lists.changed"));
    expect(listEvent).toMatchObject({
      event: { listId: list.id, list: { title: "Live", abilities: { rename: false, addTicket: false } } },
    });
    const editorTab = await openSocket(t, editor.client);
    editorTab.send({ type: "join", projectId });
    await editorTab.next((m) => m.type === "joined");

    const ticket = (
      await owner.client.post(`/api/projects/${projectId}/tickets`, { listId: list.id, title: "Live bug" })
    ).body.data;
    const asCommenter = await tab.next(isEvent("tickets.changed"));
    expect(asCommenter).toMatchObject({
      event: {
        ticketId: ticket.id,
        ticket: { title: "Live bug", abilities: { reply: true, update: false } },
      },
    });
    const asEditor = await editorTab.next(isEvent("tickets.changed"));
    expect(asEditor).toMatchObject({
      event: { ticket: { abilities: { reply: true, update: true, move: true } } },
    });
    await owner.client.delete(`/api/tickets/${ticket.id}`);
    expect(await tab.next(isEvent("tickets.deleted"))).toMatchObject({ event: { ticketId: ticket.id } });
    await owner.client.delete(`/api/lists/${list.id}`);
    const deleted = await tab.next(isEvent("lists.changed"));
    expect(deleted).toMatchObject({ event: { listId: list.id } });
    expect(
      deleted.type === "event" && deleted.event.type === "lists.changed" && deleted.event.list,
    ).toBeFalsy();
    tab.socket.close();
    editorTab.socket.close();
  });
});
