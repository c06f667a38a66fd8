/**
 * The bug-tracking board in a real browser (SPEC §2, §3, issue #15): a member creates a bug-tracking
 * project, adds two lists and a ticket, drags the ticket to the other list with the mouse and brings it
 * back with the keyboard, assigns it, sets a due date, replies with a mention and resolves it. A second
 * browser on the same board sees the new ticket and the move without a reload; `?t=` opens the ticket.
 * Also: a widget report in triage (accepted, merged as a duplicate), lists moved by keyboard and mouse,
 * and a 10,000-ticket board rendering only the cards in view.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { addMember, shot, signedIn } from "./helpers.ts";

const SITE = "https://shop.example.com";

/** What the widget sends with a report (packages/shared ticketReportSchema). */
function widgetReport(key: string, note: string) {
  return {
    key,
    note,
    reporter: { name: "Gail Guest", email: "gail@example.com" },
    report: {
      pageUrl: `${SITE}/checkout?step=2`,
      pageTitle: "Checkout",
      element: { selector: "#pay", text: "Pay now", tag: "button" },
      viewport: { width: 1280, height: 800, devicePixelRatio: 2 },
      browser: "Chrome 140",
      os: "Linux",
      console: [{ level: "error", message: "TypeError: pay is not a function", at: 1_700_000_000_000 }],
      failedRequests: [{ method: "POST", url: `${SITE}/api/pay`, status: 500, at: 1_700_000_000_100 }],
    },
  };
}

/** The cards of one list, by title. */
const cardsIn = (page: Page, list: string) =>
  page
    .getByRole("list", { name: `Tickets in ${list}` })
    .getByRole("article")
    .allInnerTexts();

const hasCard = async (page: Page, list: string, title: string) =>
  (await cardsIn(page, list)).some((text) => text.includes(title));

/** A pointer drag in small steps, as a person does it (dnd-kit starts after a few pixels). */
async function drag(page: Page, from: Locator, to: Locator) {
  const start = (await from.boundingBox())!;
  const end = (await to.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2 + 12, start.y + start.height / 2 + 4, { steps: 4 });
  await page.mouse.move(end.x + end.width / 2, end.y + Math.min(end.height / 2, 40), { steps: 16 });
  await page.mouse.up();
}

describe("the bug-tracking board", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it("takes a ticket from creation to resolved, live on a second board", async () => {
    const member = await signedIn(e2e, "board-member", "Mia Member");
    const teammate = await signedIn(e2e, "board-mate", "Grace Hopper");
    const { page } = member;

    // A bug-tracking project, created from the New project modal.
    await page.getByRole("button", { name: "New project" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New project" });
    await dialog.getByRole("radio", { name: /^Bug tracking\b/ }).check();
    await dialog.getByLabel("Project title").fill("Shop bugs");
    await dialog.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/project/"));
    const projectId = new URL(page.url()).pathname.split("/")[2]!;
    await page.getByRole("heading", { name: "No lists yet" }).waitFor();
    await page.getByText("No new reports.", { exact: false }).waitFor();
    await shot(page, "board-01-empty");
    // A teammate to assign and mention (the board lists the project's people when it loads).
    await addMember(member.api, projectId, teammate.email, "edit");
    await page.reload();

    // Two lists, 'Untitled' at first, renamed in place.
    await page.getByRole("button", { name: "Add a list" }).click();
    await page.getByRole("button", { name: "Rename list Untitled" }).waitFor();
    await page.getByRole("button", { name: "Add list" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Rename list Untitled" }).count()).toBe(2);
    for (const title of ["To do", "Doing"]) {
      await page.getByRole("button", { name: "Rename list Untitled" }).first().click();
      await page.getByRole("textbox", { name: "Rename list" }).fill(title);
      await page.getByRole("textbox", { name: "Rename list" }).press("Enter");
      await page.getByRole("button", { name: `Rename list ${title}` }).waitFor();
    }

    // The teammate opens the same board in another browser.
    const other = teammate.page;
    await other.goto(`/project/${projectId}`);
    await other.getByRole("heading", { name: "Doing" }).waitFor();

    // A ticket added at the bottom of 'To do' shows on both boards.
    const todo = page.getByRole("region", { name: "To do" });
    await todo.getByRole("button", { name: "Add a ticket" }).click();
    await todo
      .getByRole("textbox", { name: "Title of the new ticket in To do" })
      .fill("Checkout button overlaps");
    await todo.getByRole("textbox", { name: "Title of the new ticket in To do" }).press("Enter");
    await expect.poll(() => hasCard(page, "To do", "Checkout button overlaps")).toBe(true);
    await page.keyboard.press("Escape");
    await expect
      .poll(() => hasCard(other, "To do", "Checkout button overlaps"), { timeout: 10_000 })
      .toBe(true);
    await shot(page, "board-02-ticket");

    // Dragged to 'Doing' with the mouse: one move, seen live by the teammate.
    const card = page.getByRole("article", { name: "#1 Checkout button overlaps" });
    const doing = page.getByRole("region", { name: "Doing" });
    await drag(page, card, doing.getByText("No tickets yet."));
    await expect.poll(() => hasCard(page, "Doing", "Checkout button overlaps")).toBe(true);
    expect(await hasCard(page, "To do", "Checkout button overlaps")).toBe(false);
    await expect
      .poll(() => hasCard(other, "Doing", "Checkout button overlaps"), { timeout: 10_000 })
      .toBe(true);
    await shot(other, "board-03-moved-live");
    const boardNow = async () => (await member.api.get(`/api/projects/${projectId}/board`)).body.data;
    const listId = async (title: string) =>
      (await boardNow()).lists.find((list: { title: string }) => list.title === title).id as string;
    const doingId = await listId("Doing");
    await expect.poll(async () => (await boardNow()).tickets[0].listId).toBe(doingId);

    // And back with the keyboard: the grip, Space, arrow left, Space.
    await page.getByRole("button", { name: "Move ticket #1: Checkout button overlaps" }).focus();
    // Each step is announced to screen readers (dnd-kit's live region).
    const announced = async () => (await page.locator("[id^=DndLiveRegion]").textContent()) ?? "";
    // dnd-kit's keyboard sensor listens for arrows from the task after the pick-up (a setTimeout): an arrow
    // sent at once can land before it. Pressed again until it moves — at the first list one more is a no-op.
    const pressUntil = (key: string, text: string) =>
      expect
        .poll(async () => {
          await page.keyboard.press(key);
          return announced();
        })
        .toContain(text);
    await page.keyboard.press("Space");
    await expect.poll(announced).toContain("in list Doing");
    await pressUntil("ArrowLeft", "at position 1 of 1 in list To do");
    await page.keyboard.press("Space");
    await expect
      .poll(announced)
      .toBe("Dropped ticket #1, Checkout button overlaps at position 1 of 1 in list To do.");
    await expect.poll(() => hasCard(page, "To do", "Checkout button overlaps")).toBe(true);
    const todoId = await listId("To do");
    await expect.poll(async () => (await boardNow()).tickets[0].listId).toBe(todoId);
    await expect
      .poll(() => hasCard(other, "To do", "Checkout button overlaps"), { timeout: 10_000 })
      .toBe(true);

    // The ticket opens beside the board, at ?t=.
    await card.getByRole("button", { name: "Checkout button overlaps", exact: true }).click();
    const panel = page.getByRole("dialog", { name: "Ticket #1" });
    await panel.waitFor();
    const ticketId = new URL(page.url()).searchParams.get("t")!;
    expect(ticketId).toBeTruthy();
    const stored = async () => (await member.api.get(`/api/tickets/${ticketId}`)).body.data;
    await panel.getByRole("combobox", { name: "Assignee" }).selectOption({ label: "Grace Hopper" });
    await expect.poll(async () => (await stored()).assignee?.displayName).toBe("Grace Hopper");
    await panel.getByLabel("Due date").fill("2030-01-15");
    await expect.poll(async () => (await stored()).dueDate).toBe("2030-01-15");

    const reply = panel.getByRole("combobox", { name: "Reply" });
    await reply.click();
    await reply.pressSequentially("@Gra");
    await panel
      .getByRole("listbox", { name: "People" })
      .getByRole("option", { name: "Grace Hopper" })
      .click();
    await reply.pressSequentially("can you check Safari?");
    await panel.getByRole("button", { name: "Reply", exact: true }).click();
    await panel.locator(".mention", { hasText: "@Grace Hopper" }).waitFor();
    await panel.getByRole("button", { name: "Resolve" }).click();
    await panel.getByText("Resolved by Mia Member").waitFor();
    await shot(page, "board-04-ticket");

    const saved = await stored();
    expect(saved.isResolved).toBe(true);
    expect(saved.thread.at(-1).comment).toBe(`{@${saved.assignedTo}} can you check Safari?`);

    // Back closes the ticket; the teammate's card shows the resolved state live.
    await page.goBack();
    await expect.poll(() => panel.count()).toBe(0);
    expect(new URL(page.url()).searchParams.get("t")).toBeNull();
    // The card shows what changed: assignee, due date, resolved, one reply.
    await card.getByText("Assigned to Grace Hopper").waitFor({ state: "attached" });
    await card.getByText("Resolved").waitFor();
    expect(await card.textContent()).toMatch(/Jan/);
    await shot(page, "board-05-card");
    await other.getByRole("article", { name: "#1 Checkout button overlaps" }).getByText("Resolved").waitFor();
    await shot(other, "board-06-resolved-live");

    // A link with ?t= opens that ticket.
    await other.goto(`/project/${projectId}?t=${ticketId}`);
    const opened = other.getByRole("dialog", { name: "Ticket #1" });
    await opened.getByRole("textbox", { name: "Title" }).waitFor();
    await expect
      .poll(() => opened.getByRole("textbox", { name: "Title" }).inputValue())
      .toBe("Checkout button overlaps");
    await opened.getByText("can you check Safari?", { exact: false }).waitFor();
    await other.keyboard.press("Escape");

    // Lists move too: 'Doing' first, by keyboard; the other board follows.
    await page.getByRole("button", { name: "Move list Doing" }).focus();
    await page.keyboard.press("Space");
    await expect.poll(announced).toContain("list Doing");
    await pressUntil("ArrowLeft", "position 1 of 2");
    await page.keyboard.press("Space");
    const titles = async () =>
      ((await boardNow()).lists as { title: string; sortKey: string }[])
        .sort((a, b) => (a.sortKey < b.sortKey ? -1 : 1))
        .map((list) => list.title);
    await expect.poll(titles).toEqual(["Doing", "To do"]);
    const columnOrder = (board: Page) => board.locator(".board-column__title").allInnerTexts();
    await expect.poll(() => columnOrder(page)).toEqual(["Triage", "Doing", "To do"]);
    await expect.poll(() => columnOrder(other), { timeout: 10_000 }).toEqual(["Triage", "Doing", "To do"]);
  });

  it("shows a widget report in triage with what was captured; accepts it, merges a duplicate, moves a list", async () => {
    const { page, api } = await signedIn(e2e, "board-triage", "Tara Triage");
    const projectId = (await api.post("/api/projects", { title: "Storefront bugs", type: "browse" })).body
      .data.id as string;
    for (const title of ["To do", "Doing"]) await api.post(`/api/projects/${projectId}/lists`, { title });
    const lists = (await api.get(`/api/projects/${projectId}/board`)).body.data.lists as { id: string }[];
    await api.post(`/api/projects/${projectId}/tickets`, {
      listId: lists[0]!.id,
      title: "Cart total is wrong",
    });
    await api.put(`/api/projects/${projectId}/widget`, { allowedOrigins: [SITE] });
    const { key } = (await api.get(`/api/projects/${projectId}/widget`)).body.data;

    // The screenshot a reporter took of the shop, with their mark on it.
    await page.setContent(
      '<body style="font:16px sans-serif;padding:40px"><h1>Checkout</h1><p>Total: $42.00</p>' +
        '<button id="pay" style="outline:3px solid #e5383b;outline-offset:4px">Pay now</button></body>',
    );
    const screenshot = await page.screenshot();
    const send = async (note: string) => {
      const form = new FormData();
      form.append("report", JSON.stringify(widgetReport(key, note)));
      form.append("screenshot", new Blob([new Uint8Array(screenshot)], { type: "image/png" }), "s.png");
      const response = await fetch(`${e2e.baseUrl}/api/widget/reports`, {
        method: "POST",
        body: form,
        headers: { origin: SITE },
      });
      expect(response.status).toBe(201);
    };

    await page.goto(`/project/${projectId}`);
    await page.getByRole("heading", { name: "Doing" }).waitFor();
    // Sent while the board is open: it shows in triage without a reload.
    await send("The pay button does nothing\nI clicked it twice.");
    const triage = page.getByRole("list", { name: "Reports in triage" });
    await triage.getByRole("article", { name: "#2 The pay button does nothing" }).waitFor();
    await shot(page, "board-07-triage");

    await triage.getByRole("button", { name: "The pay button does nothing", exact: true }).click();
    const panel = page.getByRole("dialog", { name: "Ticket #2" });
    const report = panel.getByRole("region", { name: "Report" });
    await report.getByRole("img", { name: /Screenshot sent with report #2/ }).waitFor();
    expect(await report.getByRole("link", { name: "Checkout" }).getAttribute("href")).toBe(
      "https://shop.example.com/checkout?step=2",
    );
    await report.getByText("#pay").waitFor();
    await report.getByText("1280 × 800 @2x").waitFor();
    await report.getByText("Chrome 140 on Linux").waitFor();
    await report
      .getByRole("list", { name: "Console messages" })
      .getByText("TypeError: pay is not a function")
      .waitFor();
    await report
      .getByRole("list", { name: "Failed requests" })
      .getByText("POST https://shop.example.com/api/pay")
      .waitFor();
    await panel.getByText("I clicked it twice.", { exact: false }).waitFor();
    await shot(page, "board-08-report");
    await report.getByRole("list", { name: "Failed requests" }).scrollIntoViewIfNeeded();
    await shot(page, "board-09-report-details");

    // Accepted into 'Doing' from the ticket.
    await panel.getByRole("button", { name: "Accept report #2 into a list" }).click();
    await page.getByRole("menuitem", { name: "Doing" }).click();
    await panel.getByText("Open in Doing").waitFor();
    await panel.getByRole("button", { name: "Close ticket" }).click();
    await expect.poll(() => hasCard(page, "Doing", "The pay button does nothing")).toBe(true);
    await page.getByText("No new reports.", { exact: false }).waitFor();

    // A second report of the same bug is merged into the first.
    await send("Pay button broken");
    const duplicate = triage.getByRole("article", { name: "#3 Pay button broken" });
    await duplicate.waitFor();
    await duplicate.getByRole("button", { name: "Mark report #3 as a duplicate" }).click();
    const picker = page.getByRole("dialog", { name: "Mark #3 as a duplicate" });
    await picker.getByRole("searchbox", { name: "Find the original ticket" }).fill("pay");
    await picker.getByRole("radio", { name: /#2 The pay button does nothing/ }).check();
    await shot(page, "board-10-duplicate");
    await picker.getByRole("button", { name: "Merge into #2" }).click();
    await expect.poll(() => duplicate.count()).toBe(0);
    await page.getByText("No new reports.", { exact: false }).waitFor();

    // A list dragged by its grip with the mouse: 'Doing' before 'To do'.
    await drag(
      page,
      page.getByRole("button", { name: "Move list Doing" }),
      page.getByRole("button", { name: "Move list To do" }),
    );
    const columnOrder = () => page.locator(".board-column__title").allTextContents();
    await expect.poll(columnOrder).toEqual(["Triage", "Doing", "To do"]);
    await page.reload();
    await expect.poll(columnOrder).toEqual(["Triage", "Doing", "To do"]);
  });

  it("keeps a board of 10,000 tickets light: only the cards in view are on the page", async () => {
    const { page, api } = await signedIn(e2e, "board-big", "Bea Big");
    const projectId = (await api.post("/api/projects", { title: "Big board", type: "browse" })).body.data
      .id as string;
    const board = (await api.get(`/api/projects/${projectId}/board`)).body.data;
    // The board as the API would answer it with 10,000 tickets in four lists (served to the page as is).
    const listAbilities = { rename: true, move: true, delete: true, addTicket: true };
    const lists = ["To do", "Doing", "Review", "Done"].map((title, index) => ({
      id: `list-${index}`,
      projectId,
      title,
      sortKey: `a${index}`,
      createdAt: new Date().toISOString(),
      createdBy: null,
      abilities: listAbilities,
    }));
    const abilities = Object.fromEntries(
      ["update", "move", "assign", "resolve", "reply", "attach", "triage", "delete"].map((key) => [
        key,
        true,
      ]),
    );
    const tickets = Array.from({ length: 10_000 }, (_, index) => ({
      id: `ticket-${index}`,
      projectId,
      number: index + 1,
      listId: `list-${index % 4}`,
      sortKey: `a${String(index).padStart(5, "0")}`,
      intake: "accepted",
      duplicateOf: null,
      title: `Ticket number ${index + 1}`,
      description: "",
      isResolved: index % 7 === 0,
      resolvedBy: null,
      resolvedAt: null,
      assignedTo: null,
      assignee: null,
      dueDate: index % 5 === 0 ? "2030-01-01" : null,
      reporter: { uid: null, displayName: "Gail Guest", photoURL: null, isGuest: true },
      screenshotUrl: null,
      hasReplay: false,
      report: null,
      commentCount: index % 3,
      createdAt: new Date().toISOString(),
      modifiedAt: new Date().toISOString(),
      abilities,
    }));
    await page.route(`**/api/projects/${projectId}/board`, (route) =>
      route.fulfill({ json: { data: { ...board, lists, tickets } } }),
    );
    await page.goto(`/project/${projectId}`);
    const todo = page.getByRole("list", { name: "Tickets in To do" });
    await todo.getByRole("article", { name: "#1 Ticket number 1" }).waitFor();
    const rendered = await page.getByRole("article").count();
    expect(rendered).toBeLessThan(200);
    await shot(page, "board-11-ten-thousand");

    // Scrolling a list of 2,500 to its end shows its last card, with no long task on the main thread.
    await page.evaluate(() => {
      (window as unknown as { longTasks: number[] }).longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          (window as unknown as { longTasks: number[] }).longTasks.push(entry.duration);
      }).observe({ type: "longtask" });
    });
    const scroller = todo.locator("xpath=..");
    // Wheel steps over the list, as a person scrolls.
    const box = (await scroller.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    for (let step = 0; step < 40; step += 1) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(16);
    }
    const afterWheel = await page.evaluate(() =>
      (window as unknown as { longTasks: number[] }).longTasks.slice(),
    );
    await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await todo.getByRole("article", { name: "#9997 Ticket number 9997" }).waitFor();
    expect(await page.getByRole("article").count()).toBeLessThan(200);
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    console.info(
      `10,000 tickets: ${rendered} cards rendered; long tasks (ms) while wheel-scrolling: ${JSON.stringify(afterWheel)}; after the jump to the end: ${JSON.stringify(longTasks.slice(afterWheel.length))}`,
    );
  });
});
