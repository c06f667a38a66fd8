/**
 * The widget's journey (issue #15): a customer's site on another origin embeds the snippet; a guest opens
 * the widget, clicks an element, writes a note, gives a name and e-mail and sends. The report — screenshot,
 * the console error the page logged, the request that failed, environment — reaches the project's triage,
 * seen by the owner on the open board without a reload and through the API; no typed value nor
 * `data-redline-mask` text is anywhere in what was stored. The owner accepts it into a list and resolves it,
 * and the guest gets the e-mail. A free project's 21st ticket is refused with the upgrade prompt. (The
 * board's own journeys — drag, assign, due date, mentions, ?t= — are e2e/board.e2e.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../apps/server/src/testing/http-client.ts";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, type Site, serveSite, shot, signedIn, startWidgetReport } from "./helpers.ts";

const SECRETS = { password: "s3cret-hunter2", masked: "ACCT-0042-7781", card: "4111 1111 1111 1111" };

function sitePage(snippet: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Acme checkout</title>
<style>body{font:16px sans-serif;margin:24px} input{display:block;margin:8px 0;font:18px monospace}
#buy{font:18px sans-serif;padding:10px 18px;background:#1d4ed8;color:#fff;border:0;border-radius:6px}</style>
</head><body>
<h1>Checkout</h1>
<label>Password <input type="password" value="${SECRETS.password}"></label>
<label>Card <input id="card" value="${SECRETS.card}"></label>
<p data-redline-mask>Account ${SECRETS.masked}</p>
<button id="buy">Buy now</button>
<script>
  window.addEventListener("load", () => {
    console.error("Checkout failed: price is undefined");
    fetch("/api/cart").catch(() => {});
  });
</script>
${snippet}
</body></html>`;
}

describe("the bug-report widget", () => {
  let e2e: E2E;
  let site: Site;
  let html = "";

  beforeAll(async () => {
    e2e = await startE2E();
    site = await serveSite((request, response) => {
      if (request.url === "/api/cart") return response.writeHead(503).end("down");
      if (request.url !== "/") return response.writeHead(404).end();
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    });
  });
  afterAll(async () => {
    await site?.close();
    await e2e?.close();
  });

  it("takes a guest's report from another site into the board's triage, with nothing masked in it", async () => {
    const { page: board, api } = await signedIn(e2e, "widget-owner", "Olivia Owner");
    const projectId = await newProject(api, "Acme bugs", "browse");
    const settings = await api.put(`/api/projects/${projectId}/widget`, { allowedOrigins: [site.url] });
    expect(settings.status).toBe(200);
    html = sitePage(settings.body.data.snippet);
    expect(new URL(site.url).origin).not.toBe(new URL(e2e.baseUrl).origin);

    // The owner has the board open.
    await board.goto(`/project/${projectId}`);
    const triage = board.getByRole("list", { name: "Reports in triage" });
    await board.getByRole("heading", { name: "Triage" }).waitFor();

    // A guest on the customer's site.
    const guest = await e2e.newPage();
    await guest.goto(site.url);
    const { widget, dialog } = await startWidgetReport(
      guest,
      "#buy",
      "Buy now does nothing\nThe console shows an error.",
    );
    await dialog.getByLabel("Your name").fill("Gus Guest");
    await dialog.getByLabel("Your e-mail").fill("gus@example.com");
    await dialog.getByRole("button", { name: "Review what will be sent" }).click();
    await shot(guest, "widget-preview");
    await dialog.getByRole("button", { name: "Send" }).click();
    await widget.getByText(/report #1 was sent/).waitFor();

    // On the open board, without a reload.
    await triage.getByRole("button", { name: "Buy now does nothing" }).waitFor({ timeout: 10_000 });
    await shot(board, "widget-triage");

    const ticket = await reportedTicket(api, projectId);
    expect(ticket).toMatchObject({
      number: 1,
      listId: null,
      intake: "triage",
      title: "Buy now does nothing",
      reporter: { displayName: "Gus Guest", isGuest: true },
      hasReplay: false,
    });
    const report = ticket.report;
    expect(report.pageUrl).toBe(`${site.url}/`);
    expect(report.element).toMatchObject({ selector: "#buy", text: "Buy now", tag: "button" });
    expect(report.console).toContainEqual(
      expect.objectContaining({ level: "error", message: "Checkout failed: price is undefined" }),
    );
    expect(report.failedRequests).toContainEqual(
      expect.objectContaining({ method: "GET", url: `${site.url}/api/cart`, status: 503 }),
    );
    expect(report.viewport).toEqual({ width: 1280, height: 800, devicePixelRatio: 1 });
    expect(report.browser).toMatch(/^Chrome \d+$/);
    expect(report.os).toBe("Linux");

    // The screenshot is stored and served to the owner.
    expect(ticket.screenshotUrl).toEqual(expect.any(String));
    const image = await board.request.get(new URL(ticket.screenshotUrl, e2e.baseUrl).href);
    expect(image.status()).toBe(200);
    expect((await image.body()).subarray(1, 4).toString()).toBe("PNG");

    // No typed value and no masked text, anywhere in the stored report.
    const [row] = (
      await e2e.app.ctx.database.executeSql("select to_jsonb(t)::text as row from tickets t where id = $1", [
        ticket.id,
      ])
    ).rows as { row: string }[];
    const entries = await e2e.app.ctx.database.executeSql(
      "select coalesce(string_agg(to_jsonb(e)::text, ''), '') as rows from ticket_entries e where ticket_id = $1",
      [ticket.id],
    );
    for (const stored of [JSON.stringify(ticket), row!.row, (entries.rows[0] as { rows: string }).rows])
      for (const secret of Object.values(SECRETS)) expect(stored).not.toContain(secret);

    // The owner accepts the report into a list and resolves it: the guest who reported it is told by e-mail.
    expect((await api.post(`/api/projects/${projectId}/lists`, { title: "To do" })).status).toBe(201);
    await board.getByRole("region", { name: "To do" }).waitFor();
    await triage.getByRole("button", { name: "Accept report #1 into a list" }).click();
    await board.getByRole("menuitem", { name: "To do" }).click();
    const card = board.getByRole("article", { name: "#1 Buy now does nothing" });
    await board.getByRole("list", { name: "Tickets in To do" }).getByRole("article").first().waitFor();
    await card.getByRole("button", { name: "Buy now does nothing", exact: true }).click();
    const panel = board.getByRole("dialog", { name: "Ticket #1" });
    await panel.getByRole("button", { name: "Resolve" }).click();
    await panel.getByText("Resolved by Olivia Owner").waitFor();
    const mail = await e2e.app.inbox!.waitFor((m) => m.to.includes("gus@example.com"));
    expect(mail.text).toContain("Buy now does nothing");
  });

  it("refuses the 21st ticket of a free bug-tracking project with the upgrade prompt", async () => {
    e2e.app.ctx.config.plansEnabled = true;
    try {
      const { page, api } = await signedIn(e2e, "widget-free", "Fay Free");
      const projectId = await newProject(api, "Free bugs", "browse");
      const listId = (await api.post(`/api/projects/${projectId}/lists`, { title: "To do" })).body.data.id;
      for (let n = 1; n <= 20; n++)
        expect(
          (await api.post(`/api/projects/${projectId}/tickets`, { listId, title: `Bug ${n}` })).status,
        ).toBe(201);
      await page.goto(`/project/${projectId}`);
      const todo = page.getByRole("region", { name: "To do" });
      await todo.getByRole("button", { name: "Add a ticket" }).click();
      const title = todo.getByRole("textbox", { name: "Title of the new ticket in To do" });
      await title.fill("Bug 21");
      await title.press("Enter");
      await page.getByRole("dialog", { name: "Upgrade your plan" }).waitFor();
      await shot(page, "widget-21st-ticket");
      const stored = (await api.get(`/api/projects/${projectId}/board`)).body.data;
      expect(stored.tickets).toHaveLength(20);
      expect(stored.ticketLimit).toEqual({ limit: 20, used: 20 });
    } finally {
      e2e.app.ctx.config.plansEnabled = false;
    }
  });
});

async function reportedTicket(api: ApiClient, projectId: string) {
  const board = await api.get(`/api/projects/${projectId}/board`);
  expect(board.status).toBe(200);
  expect(board.body.data.tickets).toHaveLength(1);
  return board.body.data.tickets[0];
}
