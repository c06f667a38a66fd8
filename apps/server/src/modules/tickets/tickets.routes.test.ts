import type { Board, Ticket, TicketDetail, TicketReport } from "@redline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projects, tickets } from "../../db/schema/index.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { routeIt } from "../../testing/route-it.ts";
import { settledGet, startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers, routeDrivers } from "../../testing/test-db.ts";
import { createTicket } from "./tickets.service.ts";

const report: TicketReport = {
  pageUrl: "https://shop.example.com/cart",
  pageTitle: "Cart",
  element: null,
  region: null,
  viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
  userAgent: "",
  browser: "Chrome 131",
  os: "Linux",
  console: [],
  failedRequests: [],
};

describe.each(drivers())("tickets (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let commenter: Person;
  let outsider: Person;
  let projectId: string;
  let todo: string;
  let doing: string;

  const card = (title: string, listId = todo, description?: string): Promise<Ticket> =>
    owner.client
      .post(`/api/projects/${projectId}/tickets`, { listId, title, ...(description && { description }) })
      .then((answer) => answer.body.data);
  const board = async (query = ""): Promise<Board> =>
    (await owner.client.get(`/api/projects/${projectId}/board${query}`)).body.data;
  const column = async (listId: string) =>
    (await board()).tickets.filter((ticket) => ticket.listId === listId).map((ticket) => ticket.title);
  const detail = async (id: string, as = owner): Promise<TicketDetail> =>
    (await as.client.get(`/api/tickets/${id}`)).body.data;
  const report_ = (note: string, email = "gail@example.com") =>
    createTicket(t.ctx, {
      projectId,
      listId: null,
      title: note,
      firstEntry: note,
      reporter: { name: "Gail Guest", email },
      report,
    });

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [owner, editor, commenter, outsider] = await Promise.all([
      signUpPerson(t, "owner", "Olivia Owner"),
      signUpPerson(t, "editor", "Eddie Editor"),
      signUpPerson(t, "commenter", "Carl Commenter"),
      signUpPerson(t, "outsider"),
    ]);
    projectId = (await owner.client.post("/api/projects", { title: "Shop bugs", type: "browse" })).body.data
      .id;
    await owner.client.post(`/api/projects/${projectId}/members`, { email: editor.address, access: "edit" });
    await owner.client.post(`/api/projects/${projectId}/members`, {
      email: commenter.address,
      access: "comment",
    });
    todo = (await owner.client.post(`/api/projects/${projectId}/lists`, { title: "To do" })).body.data.id;
    doing = (await owner.client.post(`/api/projects/${projectId}/lists`, { title: "Doing" })).body.data.id;
  });
  afterAll(() => t.close());

  routeIt(driver)(
    "writes a ticket into a list, numbered, with its first entry, and tells the project's people",
    async () => {
      const created = await owner.client.post(`/api/projects/${projectId}/tickets`, {
        listId: todo,
        title: "Checkout button is grey",
        description: "It should be red.",
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        number: 1,
        listId: todo,
        intake: "accepted",
        reporter: { uid: owner.uid, displayName: "Olivia Owner", isGuest: false },
        commentCount: 0,
        screenshotUrl: null,
        abilities: { update: true, triage: true, delete: true },
      });
      const read = await detail(created.body.data.id, commenter);
      expect(read.thread.map((entry) => entry.comment)).toEqual(["It should be red."]);
      expect(read.abilities).toMatchObject({ reply: true, update: false });
      const titleOnly = await card("No description");
      expect((await detail(titleOnly.id)).thread[0]!.comment).toBe("No description");
      expect(titleOnly.number).toBe(2);

      const notes = (await settledGet(t, editor.client, `/api/notifications?projectId=${projectId}`)).body
        .data;
      expect(notes).toContainEqual(
        expect.objectContaining({
          type: "browse-ticket-add",
          actor: expect.objectContaining({ displayName: "Olivia Owner" }),
          context: expect.objectContaining({ ticketId: created.body.data.id }),
        }),
      );
      const own = (await settledGet(t, owner.client, `/api/notifications?projectId=${projectId}`)).body.data;
      expect(own.filter((n: { type: string }) => n.type === "browse-ticket-add")).toEqual([]);
    },
  );

  it("moves a card between lists writing only its own row, and keeps the order through several moves", async () => {
    const [a, b, c] = [await card("A"), await card("B"), await card("C")];
    const d = await card("D", doing);
    const keys = async () =>
      new Map(
        (await t.ctx.database.db.select().from(tickets).where(eq(tickets.projectId, projectId))).map(
          (row) => [row.id, `${row.listId}:${row.sortKey}`],
        ),
      );
    const before = await keys();
    const moved = await editor.client.post(`/api/tickets/${b.id}/move`, {
      listId: doing,
      afterId: null,
      beforeId: d.id,
    });
    expect(moved.body.data).toMatchObject({ id: b.id, listId: doing });
    const after = await keys();
    expect([...after].filter(([id, key]) => before.get(id) !== key).map(([id]) => id)).toEqual([b.id]);
    expect(await column(doing)).toEqual(["B", "D"]);

    await editor.client.post(`/api/tickets/${c.id}/move`, { listId: doing, afterId: b.id, beforeId: d.id });
    await editor.client.post(`/api/tickets/${a.id}/move`, { listId: doing, afterId: d.id });
    await editor.client.post(`/api/tickets/${d.id}/move`, { listId: doing, beforeId: b.id });
    await editor.client.post(`/api/tickets/${b.id}/move`, { listId: todo, afterId: null, beforeId: null });
    expect(await column(doing)).toEqual(["D", "C", "A"]);
    expect((await column(todo)).at(-1)).toBe("B");
    await expectRefused(t, () => commenter.client.post(`/api/tickets/${a.id}/move`, { listId: todo }), 403);
  });

  routeIt(driver)(
    "triages widget reports: accept into a list, merge into another ticket, reject",
    async () => {
      const [accepted, merged, rejected] = [
        await report_("Price is wrong"),
        await report_("Price wrong again"),
        await report_("spam"),
      ];
      expect(accepted).toMatchObject({
        listId: null,
        intake: "triage",
        reporter: { uid: null, displayName: "Gail Guest", isGuest: true },
        report: { pageUrl: report.pageUrl },
      });
      expect(
        (await board()).tickets.filter((ticket) => ticket.intake === "triage").map((x) => x.title),
      ).toEqual(["Price is wrong", "Price wrong again", "spam"]);
      const told = (await settledGet(t, editor.client, `/api/notifications?projectId=${projectId}`)).body
        .data;
      expect(told).toContainEqual(
        expect.objectContaining({
          type: "browse-ticket-add",
          actor: expect.objectContaining({ uid: null, displayName: "Gail Guest" }),
          context: expect.objectContaining({ ticketId: accepted.id, userName: "Gail Guest" }),
        }),
      );
      await expectRefused(
        t,
        () => editor.client.post(`/api/tickets/${accepted.id}/move`, { listId: todo }),
        400,
        "ticket-not-on-board",
      );
      await expectRefused(
        t,
        () => commenter.client.post(`/api/tickets/${accepted.id}/triage`, { action: "accept", listId: todo }),
        403,
      );

      const accept = await editor.client.post(`/api/tickets/${accepted.id}/triage`, {
        action: "accept",
        listId: doing,
      });
      expect(accept.body.data).toMatchObject({ intake: "accepted", listId: doing });
      expect((await column(doing)).at(-1)).toBe("Price is wrong");
      await expectRefused(
        t,
        () => editor.client.post(`/api/tickets/${accepted.id}/triage`, { action: "reject" }),
        409,
      );

      const merge = await editor.client.post(`/api/tickets/${merged.id}/triage`, {
        action: "duplicate",
        of: accepted.id,
      });
      expect(merge.body.data).toMatchObject({ intake: "duplicate", duplicateOf: accepted.id, listId: null });
      const target = await detail(accepted.id);
      expect(target.thread.map((entry) => [entry.comment, entry.author.displayName])).toEqual([
        ["Price is wrong", "Gail Guest"],
        ["Price wrong again", "Gail Guest"],
      ]);
      expect(target.commentCount).toBe(1);

      await editor.client.post(`/api/tickets/${rejected.id}/triage`, { action: "reject" });
      const ids = (await board()).tickets.map((ticket) => ticket.id);
      expect(ids).toContain(accepted.id);
      expect(ids).not.toContain(merged.id);
      expect(ids).not.toContain(rejected.id);
      expect((await detail(rejected.id)).intake).toBe("rejected");
    },
  );

  routeIt(driver)(
    "assigns to the project's people only, sets due dates, filters, resolves and reopens",
    async () => {
      const ticket = await card("Assign me", todo, "Find #me in the description");
      await expectRefused(
        t,
        () => editor.client.patch(`/api/tickets/${ticket.id}`, { assignedTo: outsider.uid }),
        400,
        "not-an-assignee",
      );
      await expectRefused(
        t,
        () => commenter.client.patch(`/api/tickets/${ticket.id}`, { assignedTo: commenter.uid }),
        403,
      );
      const assignees = (await board()).assignees.map((person) => person.displayName).sort();
      expect(assignees).toEqual(["Carl Commenter", "Eddie Editor", "Olivia Owner"]);

      const updated = await editor.client.patch(`/api/tickets/${ticket.id}`, {
        assignedTo: commenter.uid,
        dueDate: "2000-01-01",
      });
      expect(updated.body.data).toMatchObject({
        assignedTo: commenter.uid,
        assignee: { displayName: "Carl Commenter" },
        dueDate: "2000-01-01",
      });
      const only = async (query: string) => (await board(query)).tickets.map((x) => x.id);
      expect(await only(`?assignee=${commenter.uid}`)).toEqual([ticket.id]);
      expect(await only("?due=overdue")).toEqual([ticket.id]);
      expect(await only("?q=%23me")).toEqual([ticket.id]);
      expect(await only(`?q=%23${ticket.number}`)).toEqual([ticket.id]);
      expect(await only("?due=none")).not.toContain(ticket.id);

      const resolved = await editor.client.patch(`/api/tickets/${ticket.id}`, { isResolved: true });
      expect(resolved.body.data).toMatchObject({
        isResolved: true,
        resolvedBy: editor.uid,
        resolvedAt: expect.any(String),
      });
      expect(await only("?resolved=true")).toEqual([ticket.id]);
      expect(await only("?due=overdue")).toEqual([]);
      const reopened = await owner.client.patch(`/api/tickets/${ticket.id}`, {
        isResolved: false,
        assignedTo: null,
      });
      expect(reopened.body.data).toMatchObject({
        isResolved: false,
        resolvedBy: null,
        resolvedAt: null,
        assignee: null,
      });
    },
  );

  routeIt(driver)("mails a widget reporter once when their report is resolved", async () => {
    const address = `reporter-${Date.now().toString(36)}@example.com`;
    const reported = await report_("Coupon field rejects codes", address);
    await editor.client.post(`/api/tickets/${reported.id}/triage`, { action: "accept", listId: todo });
    await Promise.all([
      editor.client.patch(`/api/tickets/${reported.id}`, { isResolved: true }),
      owner.client.patch(`/api/tickets/${reported.id}`, { isResolved: true }),
    ]);
    const mail = await t.inbox!.waitFor((m) => m.to.includes(address));
    expect(mail.subject).toContain("Coupon field rejects codes");
    expect(mail.text).toContain(report.pageUrl);
    expect(mail.text).toContain("Gail Guest");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.inbox!.mails.filter((m) => m.to.includes(address))).toHaveLength(1);
  });

  routeIt(driver)(
    "keeps a thread: replies with mentions, author-only edits, and the only-entry rule",
    async () => {
      const ticket = await card("Threaded");
      const first = (await detail(ticket.id)).thread[0]!;
      const replied = await commenter.client.post(`/api/tickets/${ticket.id}/entries`, {
        comment: `Seen it too {@${editor.uid}}`,
      });
      expect(replied.status).toBe(201);
      expect(replied.body.data.commentCount).toBe(1);
      const reply = replied.body.data.thread[1];
      expect(reply.abilities).toEqual({ edit: true, delete: true });
      const mentions = (await settledGet(t, editor.client, `/api/notifications?projectId=${projectId}`)).body
        .data;
      expect(mentions).toContainEqual(
        expect.objectContaining({
          type: "web-comment-reply-mention",
          context: expect.objectContaining({ ticketId: ticket.id }),
        }),
      );

      await expectRefused(
        t,
        () => owner.client.patch(`/api/tickets/${ticket.id}/entries/${reply.id}`, { comment: "Mine now" }),
        403,
      );
      const edited = await commenter.client.patch(`/api/tickets/${ticket.id}/entries/${reply.id}`, {
        comment: "Edited",
      });
      expect(edited.body.data.thread[1]).toMatchObject({ comment: "Edited", editedAt: expect.any(String) });
      await expectRefused(
        t,
        () => commenter.client.delete(`/api/tickets/${ticket.id}/entries/${first.id}`),
        403,
      );

      // Deleting the first of two entries leaves the ticket; deleting the only one left deletes it.
      expect((await owner.client.delete(`/api/tickets/${ticket.id}/entries/${first.id}`)).body.data).toEqual({
        ticketDeleted: false,
      });
      expect((await detail(ticket.id)).thread.map((entry) => entry.comment)).toEqual(["Edited"]);
      expect(
        (await commenter.client.delete(`/api/tickets/${ticket.id}/entries/${reply.id}`)).body.data,
      ).toEqual({
        ticketDeleted: true,
      });
      expect((await owner.client.get(`/api/tickets/${ticket.id}`)).status).toBe(404);
    },
  );

  routeIt(driver)(
    "serves the report's screenshot and replay to readers, and removes them with the ticket",
    async () => {
      const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
      const [shotKey, replayKey] = [`tickets/${projectId}/shot.png`, `tickets/${projectId}/replay.json`];
      await t.ctx.storage.put(shotKey, png);
      await t.ctx.storage.put(replayKey, Buffer.from('{"events":[]}'));
      const ticket = await createTicket(t.ctx, {
        projectId,
        listId: null,
        title: "With a screenshot",
        firstEntry: "See the picture",
        reporter: { userId: commenter.uid },
        report,
        screenshot: { key: shotKey, bytes: png.length },
        replay: { key: replayKey, bytes: 13 },
      });
      expect(ticket.screenshotUrl).toMatch(
        new RegExp(`^/api/tickets/${ticket.id}/screenshot\\?v=[0-9a-f]+$`),
      );
      expect(ticket.hasReplay).toBe(true);
      const shot = await commenter.client.get(ticket.screenshotUrl!);
      expect([shot.status, shot.headers.get("content-type")]).toEqual([200, "image/png"]);
      const replay = await commenter.client.get(`/api/tickets/${ticket.id}/replay`);
      expect(replay.body).toEqual({ events: [] });
      expect((await outsider.client.get(ticket.screenshotUrl!)).status).toBe(404);

      // A reply's attachment, uploaded through the comments' attachment route, goes with the ticket too.
      const file = (
        await commenter.client.upload(`/api/projects/${projectId}/attachments`, {
          name: "log.txt",
          type: "text/plain",
          bytes: Buffer.from(`console log ${ticket.id}`),
        })
      ).body.data;
      const withFile = await commenter.client.post(`/api/tickets/${ticket.id}/entries`, {
        comment: "Log attached",
        attachments: [file],
      });
      expect(withFile.body.data.thread[1].attachments).toEqual([file]);
      await expectRefused(t, () => commenter.client.delete(`/api/tickets/${ticket.id}`), 403);
      expect((await editor.client.delete(`/api/tickets/${ticket.id}`)).status).toBe(200);
      expect(await t.ctx.storage.get(shotKey)).toBeNull();
      expect(await t.ctx.storage.get(replayKey)).toBeNull();
      expect(await t.ctx.storage.size(file.path)).toBeNull();
    },
  );

  routeIt(driver)("refuses bad input and changes nothing", async () => {
    const ticket = await card("Untouchable");
    const other = (await owner.client.post("/api/projects", { title: "Elsewhere", type: "browse" })).body.data
      .id;
    const foreignList = (await owner.client.post(`/api/projects/${other}/lists`, {})).body.data.id;
    for (const body of [
      { listId: todo, title: "" },
      { listId: foreignList, title: "x" },
      { title: "no list" },
      { listId: todo, title: "x", extra: 1 },
    ])
      await expectRefused(t, () => owner.client.post(`/api/projects/${projectId}/tickets`, body), 400);
    for (const body of [
      { dueDate: "tomorrow" },
      { title: "" },
      { isResolved: "yes" },
      { description: "x".repeat(10_001) },
    ])
      await expectRefused(t, () => owner.client.patch(`/api/tickets/${ticket.id}`, body), 400);
    for (const body of [
      { listId: foreignList },
      { listId: todo, afterId: ticket.id },
      { listId: doing, beforeId: "nope" },
    ])
      await expectRefused(t, () => owner.client.post(`/api/tickets/${ticket.id}/move`, body), 400);
    await expectRefused(
      t,
      () => owner.client.post(`/api/tickets/${ticket.id}/triage`, { action: "maybe" }),
      400,
    );
    await expectRefused(
      t,
      () => owner.client.post(`/api/tickets/${ticket.id}/entries`, { comment: "  " }),
      400,
    );
    await expectRefused(
      t,
      () =>
        owner.client.post(`/api/tickets/${ticket.id}/entries`, {
          comment: "file",
          attachments: [{ name: "a", size: 1, type: "x", path: `attachments/${other}/${"a".repeat(64)}` }],
        }),
      400,
    );
    await expectRefused(t, () => outsider.client.patch(`/api/tickets/${ticket.id}`, { title: "Hi" }), 404);
    await expectRefused(
      t,
      () => outsider.client.post(`/api/tickets/${ticket.id}/entries`, { comment: "Hi" }),
      404,
    );
  });
});

describe.each(routeDrivers())("ticket limit with plans on (%s)", (driver) => {
  let t: TestApp;
  afterAll(() => t.close());
  beforeAll(async () => {
    t = await startTestApp({ driver, config: { plansEnabled: true } });
  });

  it("refuses the 21st ticket of a free project with 402 and stores nothing", async () => {
    const owner = await signUpPerson(t, "free");
    const projectId = (await owner.client.post("/api/projects", { title: "Free bugs", type: "browse" })).body
      .data.id;
    const listId = (await owner.client.post(`/api/projects/${projectId}/lists`, {})).body.data.id;
    // Twenty at once: the project's row lock numbers them one after another.
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createTicket(t.ctx, {
          projectId,
          listId,
          title: `Bug ${i}`,
          firstEntry: "x",
          reporter: { userId: owner.uid },
        }),
      ),
    );
    expect(made.map((ticket) => ticket.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const board = (await owner.client.get(`/api/projects/${projectId}/board`)).body.data;
    expect(board.ticketLimit).toEqual({ limit: 20, used: 20 });
    const refused = await expectRefused(
      t,
      () => owner.client.post(`/api/projects/${projectId}/tickets`, { listId, title: "One too many" }),
      402,
      "ticket-limit",
    );
    expect(refused.body.limit).toEqual({ kind: "tickets", product: "browse", limit: 20 });
    await expect(
      createTicket(t.ctx, {
        projectId,
        listId: null,
        title: "Widget",
        firstEntry: "x",
        reporter: { name: "G", email: "g@example.com" },
      }),
    ).rejects.toMatchObject({ statusCode: 402 });
  });

  it("keeps a widget report past the limit in triage, tells the owner, and accepts it only once there is room", async () => {
    const owner = await signUpPerson(t, "full");
    const projectId = (await owner.client.post("/api/projects", { title: "Full board", type: "browse" })).body
      .data.id;
    const listId = (await owner.client.post(`/api/projects/${projectId}/lists`, {})).body.data.id;
    const site = "https://shop.example.com";
    const { key } = (await owner.client.put(`/api/projects/${projectId}/widget`, { allowedOrigins: [site] }))
      .body.data;
    const made: Ticket[] = [];
    for (let i = 0; i < 20; i++)
      made.push(
        await createTicket(t.ctx, {
          projectId,
          listId,
          title: `Bug ${i}`,
          firstEntry: "x",
          reporter: { userId: owner.uid },
        }),
      );

    // The visitor cannot upgrade: their report is received and kept for the owner.
    const form = new FormData();
    form.append(
      "report",
      JSON.stringify({
        key,
        title: "",
        note: "Checkout is broken",
        reporter: { name: "Vera Visitor", email: "vera@example.com" },
        report: {
          pageUrl: `${site}/checkout`,
          pageTitle: "Checkout",
          element: null,
          region: null,
          viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
          userAgent: "Mozilla/5.0",
          browser: "Chrome 140",
          os: "Linux",
          console: [],
          failedRequests: [],
        },
      }),
    );
    const sent = await fetch(`${t.url}/api/widget/reports`, {
      method: "POST",
      body: form,
      headers: { origin: site },
    });
    const answer = await sent.json();
    expect(sent.status, JSON.stringify(answer)).toBe(201);
    const board = (await owner.client.get(`/api/projects/${projectId}/board`)).body.data as Board;
    expect(board.tickets.find((ticket) => ticket.id === answer.data.id)).toMatchObject({
      intake: "triage",
      title: "Checkout is broken",
    });
    expect(board.ticketLimit).toEqual({ limit: 20, used: 21 });

    // The owner hears of it, and that it is past the limit.
    const notifications = (await settledGet(t, owner.client, "/api/notifications")).body.data;
    expect(
      notifications.find((n: { context: { ticketId?: string } }) => n.context.ticketId === answer.data.id),
    ).toMatchObject({ type: "browse-ticket-add", context: { ticketLimit: 20 } });

    // Accepting it would put the board past the limit: refused until there is room.
    const accept = () =>
      owner.client.post(`/api/tickets/${answer.data.id}/triage`, { action: "accept", listId });
    await expectRefused(t, accept, 402, "ticket-limit");
    expect((await owner.client.delete(`/api/tickets/${made[0]!.id}`)).status).toBe(200);
    expect((await accept()).status).toBe(200);
    // Still no new ticket on the board past the limit.
    await expectRefused(
      t,
      () => owner.client.post(`/api/projects/${projectId}/tickets`, { listId, title: "One too many" }),
      402,
      "ticket-limit",
    );
  });

  it("meters a report's screenshot against the owner's storage, and makes an expired board read-only", async () => {
    const owner = await signUpPerson(t, "expiring");
    const projectId = (await owner.client.post("/api/projects", { title: "Short-lived", type: "browse" }))
      .body.data.id;
    const listId = (await owner.client.post(`/api/projects/${projectId}/lists`, {})).body.data.id;
    const huge = { key: `tickets/${projectId}/huge.png`, bytes: 2 * 1024 ** 3 };
    await expect(
      createTicket(t.ctx, {
        projectId,
        listId,
        title: "Huge",
        firstEntry: "x",
        reporter: { userId: owner.uid },
        screenshot: huge,
      }),
    ).rejects.toMatchObject({ statusCode: 402, limit: { kind: "storage" } });
    expect((await owner.client.get(`/api/projects/${projectId}/board`)).body.data.tickets).toEqual([]);

    await t.ctx.database.db
      .update(projects)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(projects.id, projectId));
    const board = (await owner.client.get(`/api/projects/${projectId}/board`)).body.data;
    expect(board.abilities).toEqual({
      createList: false,
      createTicket: false,
      triage: false,
      manageWidget: false,
    });
    await expectRefused(t, () => owner.client.post(`/api/projects/${projectId}/lists`, {}), 403);
    await expectRefused(
      t,
      () => owner.client.post(`/api/projects/${projectId}/tickets`, { listId, title: "Late" }),
      403,
    );
  });
});
