/**
 * The discussion module's rules over HTTP, for its three subjects at once (issue #29): an entry on a
 * comment, a ticket or a conversation that the caller cannot see is answered 404 — for writing, editing
 * and deleting alike — and nothing is written; one they can see but may not change is 403 with the
 * subject's own text; the author edits their own entry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testComment } from "../../testing/anchors.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

describe.each(routeDrivers())("discussion entries (%s)", (driver) => {
  let t: TestApp;
  let ada: Person;
  let bob: Person;
  let carl: Person;
  let sam: Person;
  /** Each subject's thread: where a new entry goes, and one entry of Ada's in it. */
  const threads: Record<
    "comment" | "ticket",
    { write: string; entry: (id: string) => string; adas: string }
  > = {} as never;
  let conversation: string;

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [ada, bob, carl, sam] = await Promise.all([
      signUpPerson(t, "ada", "Ada Lovelace"),
      signUpPerson(t, "bob", "Bob Babbage"),
      signUpPerson(t, "carl", "Carl Commenter"),
      signUpPerson(t, "sam", "Sam Stranger"),
    ]);
    const site = (await ada.client.post("/api/projects", { title: "Site" })).body.data.id;
    const bugs = (await ada.client.post("/api/projects", { title: "Bugs", type: "browse" })).body.data.id;
    for (const projectId of [site, bugs])
      for (const person of [bob, carl])
        await ada.client.post(`/api/projects/${projectId}/members`, {
          email: person.address,
          access: "comment",
        });

    const { versionId } = (
      await ada.client.post(`/api/projects/${site}/pages`, { url: "https://example.com/d" })
    ).body.data;
    const comment = (await ada.client.post(`/api/versions/${versionId}/comments`, testComment("Ada's pin")))
      .body.data;
    threads.comment = {
      write: `/api/comments/${comment.id}/replies`,
      entry: (id) => `/api/comments/${comment.id}/entries/${id}`,
      adas: comment.thread[0].id,
    };

    const listId = (await ada.client.post(`/api/projects/${bugs}/lists`, { title: "To do" })).body.data.id;
    const ticket = (await ada.client.post(`/api/projects/${bugs}/tickets`, { listId, title: "Ada's bug" }))
      .body.data;
    const detail = (await ada.client.get(`/api/tickets/${ticket.id}`)).body.data;
    threads.ticket = {
      write: `/api/tickets/${ticket.id}/entries`,
      entry: (id) => `/api/tickets/${ticket.id}/entries/${id}`,
      adas: detail.thread[0].id,
    };

    conversation = (
      await ada.client.post("/api/conversations", { projectId: site, participantIds: [bob.uid] })
    ).body.data.id;
    expect(
      (await ada.client.post(`/api/conversations/${conversation}/messages`, { message: "Hi Bob" })).status,
    ).toBe(201);
  });
  afterAll(() => t.close());

  for (const subject of ["comment", "ticket"] as const) {
    it(`answers 404 to an outsider writing, editing or deleting on a ${subject}'s thread, and writes nothing`, async () => {
      const thread = threads[subject];
      await expectRefused(t, () => sam.client.post(thread.write, { comment: "Let me in" }), 404);
      await expectRefused(t, () => sam.client.patch(thread.entry(thread.adas), { comment: "Mine now" }), 404);
      await expectRefused(t, () => sam.client.delete(thread.entry(thread.adas)), 404);
      // An entry that is not in this thread is not found either, whoever asks.
      await expectRefused(t, () => ada.client.patch(thread.entry("no-such-entry"), { comment: "x" }), 404);
    });

    it(`lets only its author edit an entry of a ${subject}'s thread (403 for another contributor)`, async () => {
      const thread = threads[subject];
      const refused = await expectRefused(
        t,
        () => bob.client.patch(thread.entry(thread.adas), { comment: "Bob's words" }),
        403,
      );
      expect(refused.body.message).toMatch(/^Only its author can edit an? (comment|entry)\.$/);
      const replied = await bob.client.post(thread.write, { comment: "Bob's reply" });
      expect(replied.status).toBe(201);
      const mine = replied.body.data.thread.at(-1);
      expect(mine).toMatchObject({ comment: "Bob's reply", abilities: { edit: true, delete: true } });
      const edited = await bob.client.patch(thread.entry(mine.id), { comment: "Bob's better reply" });
      expect(edited.status).toBe(200);
      expect(edited.body.data.thread.at(-1)).toMatchObject({
        comment: "Bob's better reply",
        editedAt: expect.any(String),
      });
    });
  }

  it("answers 404 to someone who does not take part in a conversation, even in its project, and writes nothing", async () => {
    const path = `/api/conversations/${conversation}/messages`;
    await expectRefused(
      t,
      () => sam.client.post(path, { message: "Let me in" }),
      404,
      "conversation-not-found",
    );
    await expectRefused(
      t,
      () => carl.client.post(path, { message: "Me too" }),
      404,
      "conversation-not-found",
    );
    await expectRefused(t, () => carl.client.get(path), 404, "conversation-not-found");
    expect((await bob.client.post(path, { message: "Hi Ada" })).status).toBe(201);
  });
});
