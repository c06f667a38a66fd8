/**
 * Redline's threads in Slack against the embedded Slack (issue #30): a new comment posted to the chosen
 * channel and a reply in its thread (slack.consumer.ts, slack.messages.ts); a reply written in that thread
 * brought back as the comment's reply, authored by the integration and never posted back (slack.replies.ts);
 * the bot's own and other apps' messages ignored; nothing posted while disabled; a Slack outage retried
 * until posted; a revoked token skipped.
 */
import { SLACK_BOT_USER, SLACK_CHANNELS, type SlackMessage } from "@redline/stand-ins";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slackMessages, versions } from "../../db/schema/index.ts";
import { testAnchor } from "../../testing/anchors.ts";
import { addBlankSlides } from "../../testing/decks.ts";
import { type Person, signUpPerson } from "../../testing/people.ts";
import { connectSlack, sendSlackEvent, slackDev } from "../../testing/slack.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

const CHANNEL = SLACK_CHANNELS[1].id;

describe.each(drivers())("integrations: Slack threads (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let versionId: string;
  let pageId: string;
  const slack = () => `/api/projects/${projectId}/integrations/slack`;
  const channel = async () => (await slackDev(t, `messages?channel=${CHANNEL}`)).messages as SlackMessage[];
  const pin = async (text: string) =>
    (
      await owner.client.post(`/api/versions/${versionId}/comments`, {
        anchor: testAnchor(),
        dotPosition: { x: 0.25, y: 0.5 },
        deviceWidth: 1280,
        comment: text,
      })
    ).body.data.id as string;
  const thread = async (commentId: string) =>
    (await owner.client.get(`/api/versions/${versionId}/comments`)).body.data.find(
      (c: { id: string }) => c.id === commentId,
    ).thread as { comment: string; author: { displayName: string; isGuest: boolean } }[];
  /** The comment's message in the channel, once posted. */
  const posted = async (text: string) => {
    await expect
      .poll(async () => (await channel()).some((m) => m.text.includes(text)), { timeout: 20_000 })
      .toBe(true);
    return (await channel()).find((m) => m.text.includes(text))!;
  };
  const rowsOf = (commentId: string) =>
    t.ctx.database.db.select().from(slackMessages).where(eq(slackMessages.commentId, commentId));
  const quiet = async () => {
    await t.settled();
    await new Promise((resolve) => setTimeout(resolve, 1500));
  };

  beforeAll(async () => {
    t = await startTestApp({ driver, allowServerErrors: true });
    owner = await signUpPerson(t, "owner", "Olivia Owner");
    projectId = (await owner.client.post("/api/projects", { title: "Threads" })).body.data.id;
    ({ versionId, pageId } = (
      await owner.client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/pricing" })
    ).body.data);
    expect((await connectSlack(t, owner, projectId)).status).toBe(302);
  });
  afterAll(() => t.close());

  it("posts nothing without a channel or while the integration is disabled", async () => {
    const before = (await channel()).length;
    const unchosen = await pin("Before a channel was chosen");
    // The consumer reads the integration as it is when it reads the event: it has read this one first.
    await t.settled();
    expect((await owner.client.put(slack(), { channelId: CHANNEL })).status).toBe(200);
    await owner.client.patch(slack(), { isEnabled: false });
    try {
      const disabled = await pin("While Slack is off");
      await quiet();
      expect((await channel()).length).toBe(before);
      expect(await rowsOf(unchosen)).toEqual([]);
      expect(await rowsOf(disabled)).toEqual([]);
    } finally {
      // The later cases need it on, whatever happened here.
      await owner.client.patch(slack(), { isEnabled: true });
    }
  });

  it("posts a new comment to the channel, and a reply in its thread (where the comment went)", async () => {
    const commentId = await pin("The <pricing> table & its footnote are cut off");
    const root = await posted("are cut off");
    expect(root.thread_ts).toBeUndefined();
    expect(root.text).toContain("*Olivia Owner* commented on");
    expect(root.text).toContain("The &lt;pricing&gt; table &amp; its footnote");
    expect(root.text).toContain(`${t.url}/project/${projectId}/`);
    expect(root.text).toContain(`/${versionId}/comment?id=${commentId}|Open in Redline>`);
    expect(await rowsOf(commentId)).toEqual([
      expect.objectContaining({ isRoot: true, ts: root.ts, status: "posted" }),
    ]);

    // The channel changed since: the reply still goes to its comment's thread.
    await owner.client.put(slack(), { channelId: SLACK_CHANNELS[0].id });
    await owner.client.post(`/api/comments/${commentId}/replies`, { comment: "Fixed in the next build" });
    const reply = await posted("Fixed in the next build");
    expect(reply.thread_ts).toBe(root.ts);
    expect(reply.text).toContain("*Olivia Owner* replied");
    await owner.client.put(slack(), { channelId: CHANNEL });
  });

  it("links the page's screenshot the comment is pinned on, at a signed address Slack can fetch", async () => {
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
      "hex",
    );
    const key = `screenshots/${versionId}-slack-test.png`;
    await t.ctx.storage.put(key, png);
    await t.ctx.database.db.update(versions).set({ screenshotKey: key }).where(eq(versions.id, versionId));
    await pin("The hero image is cropped");
    const root = await posted("The hero image is cropped");
    const link = /<(http[^|>]+)\|Screenshot>/.exec(root.text)?.[1];
    expect(link).toMatch(new RegExp(`^${t.contentUrl}/s/${versionId}\\?exp=\\d+&sig=`));
    const image = await fetch(link!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    // Its signature is what opens it.
    expect((await fetch(link!.replace(/sig=[^&]+/, "sig=forged"))).status).toBe(403);
  });

  it("brings a reply written in the Slack thread back as the comment's reply, and does not post it back", async () => {
    const commentId = await pin("Is the logo too large?");
    const root = await posted("Is the logo too large?");
    const sent = await slackDev(t, "reply", {
      channel: CHANNEL,
      thread_ts: root.ts,
      text: "A bit: see <https://example.com/guide|the guide> &amp; shrink it",
      userName: "Sam Slack",
    });
    expect(sent.delivered.status).toBe(200);
    await quiet();
    expect((await thread(commentId)).at(-1)).toEqual(
      expect.objectContaining({
        comment: "A bit: see the guide & shrink it",
        author: expect.objectContaining({ displayName: "Sam Slack (Slack)", isGuest: true }),
      }),
    );
    // Not posted back: the thread holds Slack's reply only.
    expect((await channel()).filter((m) => m.thread_ts === root.ts).map((m) => m.text)).toEqual([
      "A bit: see <https://example.com/guide|the guide> &amp; shrink it",
    ]);
    // Slack delivers an event again when it heard no answer in time: the reply is added once.
    const again = {
      type: "message",
      channel: CHANNEL,
      user: sent.message.user,
      text: sent.message.text,
      ts: sent.message.ts,
      thread_ts: root.ts,
    };
    expect(await sendSlackEvent(t, again)).toBe(200);
    await t.settled();
    expect((await thread(commentId)).length).toBe(2);
  });

  it("ignores the bot's own messages, other apps', edits and messages outside Redline's threads", async () => {
    const commentId = await pin("Check the footer links");
    const root = await posted("Check the footer links");
    const base = { type: "message", channel: CHANNEL, thread_ts: root.ts, text: "Echo" };
    let n = 0;
    const ts = () => `${Math.floor(Date.now() / 1000)}.9${String(++n).padStart(5, "0")}`;
    expect(await sendSlackEvent(t, { ...base, user: SLACK_BOT_USER, ts: ts() })).toBe(200);
    expect(await sendSlackEvent(t, { ...base, bot_id: "B0OTHER001", user: "U0OTHERAPP", ts: ts() })).toBe(
      200,
    );
    expect(
      await sendSlackEvent(t, { ...base, subtype: "message_changed", user: "U0REVIEWER", ts: ts() }),
    ).toBe(200);
    expect(await sendSlackEvent(t, { ...base, thread_ts: "1.000001", user: "U0REVIEWER", ts: ts() })).toBe(
      200,
    );
    await t.settled();
    expect((await thread(commentId)).length).toBe(1);
  });

  it("tells the thread of its resolution, and the channel of a page approved and a ticket reported", async () => {
    const commentId = await pin("The hero image is blurry");
    const root = await posted("The hero image is blurry");
    expect((await owner.client.patch(`/api/comments/${commentId}`, { isResolved: true })).status).toBe(200);
    const resolved = await posted("resolved this thread");
    expect(resolved).toEqual(
      expect.objectContaining({ thread_ts: root.ts, text: "*Olivia Owner* resolved this thread." }),
    );

    expect((await owner.client.put(`/api/pages/${pageId}/approval`, { approved: true })).status).toBe(200);
    const approved = await posted("approved");
    expect(approved.thread_ts).toBeUndefined();
    expect(approved.text).toMatch(/^\*Olivia Owner\* approved \*.+\*\n</);
    expect(approved.text).toContain(`${t.url}/project/${projectId}/${pageId}|Open in Redline>`);
    // A reply under the approval's message has no Redline thread to join.
    await slackDev(t, "reply", {
      channel: CHANNEL,
      thread_ts: approved.ts,
      text: "Ship it",
      userName: "Sam",
    });
    await quiet();
    expect((await channel()).filter((m) => m.thread_ts === approved.ts)).toHaveLength(1);

    const board = (await owner.client.post("/api/projects", { title: "Shop bugs", type: "browse" })).body.data
      .id as string;
    expect((await connectSlack(t, owner, board)).status).toBe(302);
    await owner.client.put(`/api/projects/${board}/integrations/slack`, { channelId: CHANNEL });
    const listId = (await owner.client.post(`/api/projects/${board}/lists`, { title: "To do" })).body.data.id;
    await owner.client.post(`/api/projects/${board}/tickets`, { listId, title: "Checkout <button> is grey" });
    const reported = await posted("on the board");
    expect(reported.text).toBe(
      `*Olivia Owner* reported *Checkout &lt;button&gt; is grey* on the board\n<${t.url}/project/${board}|Open in Redline>`,
    );
  });

  it("carries a slide's comment like a page's: to the channel with a link to it on its slide, replies and resolve in its thread", async () => {
    const deck = (await owner.client.post("/api/projects", { title: "Pitch <deck>", type: "illustration" }))
      .body.data.id as string;
    await addBlankSlides(owner.client, deck, ["s1", "s2"]);
    expect((await connectSlack(t, owner, deck)).status).toBe(302);
    await owner.client.put(`/api/projects/${deck}/integrations/slack`, { channelId: CHANNEL });
    const made = await owner.client.post(`/api/projects/${deck}/slides/s2/comments`, {
      dotPosition: { x: 0.5, y: 0.5 },
      comment: "The chart's legend & axis overlap",
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const commentId = made.body.data.id as string;
    const root = await posted("axis overlap");
    expect(root.thread_ts).toBeUndefined();
    expect(root.text).toBe(
      `*Olivia Owner* commented on slide 2 of *Pitch &lt;deck&gt;*:\nThe chart's legend &amp; axis overlap\n<${t.url}/project/${deck}?id=${commentId}|Open in Redline>`,
    );
    expect(await rowsOf(commentId)).toEqual([expect.objectContaining({ isRoot: true, ts: root.ts })]);

    await owner.client.post(`/api/comments/${commentId}/replies`, { comment: "Moved the legend" });
    expect((await posted("Moved the legend")).thread_ts).toBe(root.ts);
    expect((await owner.client.patch(`/api/comments/${commentId}`, { isResolved: true })).status).toBe(200);
    await expect
      .poll(async () => (await channel()).filter((m) => m.thread_ts === root.ts).map((m) => m.text), {
        timeout: 20_000,
      })
      .toEqual(["*Olivia Owner* replied:\nMoved the legend", "*Olivia Owner* resolved this thread."]);

    // A reply written in the slide comment's Slack thread comes back as its reply.
    await slackDev(t, "reply", {
      channel: CHANNEL,
      thread_ts: root.ts,
      text: "Looks good now",
      userName: "Sam",
    });
    await expect
      .poll(
        async () =>
          (await owner.client.get(`/api/projects/${deck}/slide-comments`)).body.data.comments
            .find((c: { id: string }) => c.id === commentId)
            ?.thread.map((e: { comment: string }) => e.comment),
        { timeout: 20_000 },
      )
      .toEqual(["The chart's legend & axis overlap", "Moved the legend", "Looks good now"]);
  });

  it("posts later when Slack is down, losing nothing", async () => {
    await slackDev(t, "fail", { method: "chat.postMessage", status: 500, times: 2 });
    const commentId = await pin("Posted after the outage");
    await posted("Posted after the outage");
    const [row] = await rowsOf(commentId);
    expect(row).toEqual(expect.objectContaining({ status: "posted", attempts: 3 }));
  });

  it("skips what a revoked token cannot post", async () => {
    await slackDev(t, "revoke", {});
    const commentId = await pin("After the token was revoked");
    await expect.poll(async () => (await rowsOf(commentId))[0]?.status, { timeout: 20_000 }).toBe("skipped");
    expect((await rowsOf(commentId))[0]!.lastError).toContain("invalid_auth");
  });
});
