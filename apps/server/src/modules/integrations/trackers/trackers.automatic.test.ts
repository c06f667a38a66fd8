import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBlankSlides } from "../../../testing/decks.ts";
import { type Person, signUpPerson } from "../../../testing/people.ts";
import { startTestApp, type TestApp } from "../../../testing/test-app.ts";
import { drivers } from "../../../testing/test-db.ts";
import { connectTracker } from "../../../testing/trackers.ts";

/** The project's automatic rule (issue #30): each new ticket (and comment) makes a card by itself, once. */
describe.each(drivers())("trackers: the automatic rule (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let board: string;
  let listId: string;
  const base = () => `/api/projects/${board}/integrations`;
  const cards = async () => (await owner.client.get(`${base()}/cards`)).body.data as any[];
  const report = async (title: string) => {
    const made = await owner.client.post(`/api/projects/${board}/tickets`, { listId, title });
    expect(made.status).toBe(201);
    return made.body.data.id as string;
  };
  const rule = async (autoCreate: boolean) => {
    const { destination } = (await owner.client.get(base())).body.data.integrations.find(
      (i: { type: string }) => i.type === "clickup",
    ).tracker;
    const saved = await owner.client.put(`${base()}/clickup`, {
      containerId: destination.containerId,
      listId: destination.listId,
      autoCreate,
    });
    expect(saved.body.data.tracker.autoCreate).toBe(autoCreate);
  };
  const cursor = async () => {
    const result = await t.ctx.database.db.execute(
      sql`select event_id from event_cursors where consumer = 'trackers'`,
    );
    return Number((result as unknown as { rows: { event_id: string | number }[] }).rows[0]?.event_id ?? 0);
  };

  beforeAll(async () => {
    t = await startTestApp({ driver });
    owner = await signUpPerson(t, "owner", "Olivia Owner");
    board = (await owner.client.post("/api/projects", { title: "Shop bugs", type: "browse" })).body.data.id;
    listId = (await owner.client.post(`/api/projects/${board}/lists`, { title: "To do" })).body.data.id;
    await connectTracker(t, owner, { projectId: board, tracker: "clickup", account: "Cleo Clickup" });
  });
  afterAll(async () => {
    await t.close();
  });

  it("makes a card for each new ticket while the rule is on", async () => {
    await rule(true);
    const ticketId = await report("The checkout button is grey");
    await expect
      .poll(async () => (await cards()).find((card) => card.subjectId === ticketId), { timeout: 30_000 })
      .toMatchObject({ tracker: "clickup", subject: "ticket", status: "created" });
    const [card] = (await cards()).filter((c) => c.subjectId === ticketId);
    expect(await (await fetch(card.url)).text()).toContain("The checkout button is grey");
  });

  it("never makes a second card when the ledger's events are read again", async () => {
    const made = (await cards()).filter((card) => card.subject === "ticket");
    expect(made).toHaveLength(1);
    await t.settled();
    const reached = await cursor();
    expect(reached).toBeGreaterThan(0);
    // The consumer reads every retained event again (as after a restore, or a cursor lost).
    await t.ctx.database.db.execute(
      sql`update event_cursors set tx = '0'::xid8, event_id = 0 where consumer = 'trackers'`,
    );
    await report("Wakes the consumer");
    await expect.poll(cursor, { timeout: 30_000 }).toBeGreaterThan(reached);
    await t.settled();
    const again = (await cards()).filter((card) => card.subject === "ticket");
    // The same card for the first ticket (and one for the ticket that woke it), nothing more.
    expect(again.filter((card) => card.subjectId === made[0].subjectId)).toEqual([made[0]]);
    expect(again.length).toBe(2);
  });

  it("makes a card for a new slide comment like a page's, saying its slide and linking to it there", async () => {
    const deck = (await owner.client.post("/api/projects", { title: "Pitch deck", type: "illustration" }))
      .body.data.id as string;
    await addBlankSlides(owner.client, deck, ["s1", "s2", "s3"]);
    await connectTracker(t, owner, { projectId: deck, tracker: "clickup", account: "Cleo Clickup" });
    const integrations = `/api/projects/${deck}/integrations`;
    const { destination } = (await owner.client.get(integrations)).body.data.integrations.find(
      (i: { type: string }) => i.type === "clickup",
    ).tracker;
    const saved = await owner.client.put(`${integrations}/clickup`, {
      containerId: destination.containerId,
      listId: destination.listId,
      autoCreate: true,
    });
    expect(saved.body.data.tracker.autoCreate).toBe(true);
    const made = await owner.client.post(`/api/projects/${deck}/slides/s3/comments`, {
      dotPosition: { x: 0.2, y: 0.3 },
      comment: "Swap the logo for the new one",
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const commentId = made.body.data.id as string;
    await expect
      .poll(
        async () =>
          ((await owner.client.get(`${integrations}/cards`)).body.data as any[]).find(
            (card) => card.subjectId === commentId,
          ),
        { timeout: 30_000 },
      )
      .toMatchObject({ tracker: "clickup", subject: "comment", status: "created" });
    const card = ((await owner.client.get(`${integrations}/cards`)).body.data as any[]).find(
      (c) => c.subjectId === commentId,
    );
    const text = await (await fetch(card.url)).text();
    expect(text).toContain("Swap the logo for the new one");
    expect(text).toContain("Slide: 3 of Pitch deck");
    expect(text).toContain(`${t.url}/project/${deck}?id=${commentId}`);
  });

  it("makes none once the rule is off", async () => {
    await rule(false);
    const ticketId = await report("Made while the rule is off");
    await t.settled();
    expect((await cards()).some((card) => card.subjectId === ticketId)).toBe(false);
  });
});
