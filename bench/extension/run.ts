/**
 * npm run bench:extension — "add this page" from the browser extension (issue #31): from the click on
 * "Add this page" in the popup to the page opening in Redline (its review page loaded), on a typical app
 * page, p50/p95 over several adds (goal: ≤ 3 s). The baseline, in the same run: opening the same review
 * page of an already added page from a tab (what Redline itself costs); the difference is the extension's
 * part (SingleFile in the tab, the visible-tab capture, the upload, the server storing it).
 * The real server process on a scratch PostgreSQL database; the unpacked extension built for it, loaded in
 * Debian's Chromium (a persistent context, through playwright-core); a fixture app page on localhost.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { EXTENSION_ID, EXTENSION_MESSAGES } from "@redline/shared";
import type { Page } from "playwright-core";
import { launchWithExtension } from "../../apps/extension/scripts/test-browser.ts";
import { percentile, writeSection } from "../lib/report.ts";
import { scratchDatabase, signUp, startServer } from "../lib/server.ts";

const ADDS = Number(process.env.BENCH_ADDS ?? 7);

/** A typical app page: a dashboard with a table, a form and some styles (about 20 KB of HTML). */
function appPage(): string {
  const rows = Array.from(
    { length: 200 },
    (_, i) =>
      `<tr><td>INV-${1000 + i}</td><td>Customer ${i}</td><td>${(i * 37.5).toFixed(2)} €</td><td><span class="tag">${i % 3 ? "paid" : "due"}</span></td></tr>`,
  ).join("");
  return `<!doctype html><html><head><title>Invoices</title><style>
body{font:14px system-ui,sans-serif;margin:0;color:#1f2937}header{background:#1e3a8a;color:#fff;padding:16px 24px}
main{padding:24px}table{border-collapse:collapse;width:100%}td{border-bottom:1px solid #e5e7eb;padding:6px 8px}
.tag{background:#e0e7ff;border-radius:4px;padding:2px 6px}form{display:flex;gap:8px;margin-bottom:16px}
</style></head><body><header><h1>Invoices</h1></header><main><form><input name="q" value="paid" aria-label="Search"><button>Search</button></form><table>${rows}</table></main></body></html>`;
}

async function main() {
  const database = await scratchDatabase();
  const server = await startServer({ DATABASE_URL: database.url });
  const site = http.createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end(appPage());
  });
  await new Promise<void>((resolve) => site.listen(0, resolve));
  // On localhost: the extension's test build reads it without a click; Redline (127.0.0.1) stays a CORS call.
  const siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/invoices`;
  try {
    const owner = await signUp(server);
    const email = (await owner.get("/api/me")).body.data.email as string;
    await owner.post("/api/auth/sign-in/email", { email, password: "bench password" });
    await owner.patch("/api/me", {
      onboarding: { profileSetup: true, featureTour: true, introduceProductSplitting: true, demoModal: true },
    });
    await owner.post("/api/projects", { title: "Billing app", type: "webapp" });
    const extension = await launchWithExtension(server.url, ["http://localhost/*"]);
    const { context, worker } = extension;
    try {
      await context.addCookies(
        owner.cookieList().map((cookie) => ({ ...cookie, url: server.url, httpOnly: true })),
      );
      const app = await context.newPage();
      await app.goto(siteUrl);
      const tabId = await worker.evaluate(
        async (address) =>
          (
            await (
              globalThis as unknown as {
                chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } };
              }
            ).chrome.tabs.query({})
          ).find((tab) => tab.url === address)?.id,
        siteUrl,
      );
      const popupUrl = `chrome-extension://${EXTENSION_ID}/popup.html?tab=${tabId}`;
      // Sign the extension in, as a person does: the popup opens Redline, which they allow.
      const popup = await context.newPage();
      await popup.goto(popupUrl);
      const connectOpens = context.waitForEvent("page");
      await popup.getByRole("button", { name: "Sign in with Redline" }).click();
      const connect = await connectOpens;
      await connect.getByRole("button", { name: "Allow the extension" }).click();
      await connect.getByText(EXTENSION_MESSAGES.approved).waitFor();
      await connect.close();
      await popup.close();

      /** Click → the review page loaded in the tab Redline opens (ms), and that page. */
      const addOnce = async (): Promise<{ ms: number; review: Page }> => {
        const popup = await context.newPage();
        await popup.goto(popupUrl);
        await popup.getByLabel("Project").selectOption({ label: "Billing app" });
        const opens = context.waitForEvent("page");
        const clicked = performance.now();
        await popup.getByRole("button", { name: "Add this page" }).click();
        const review = await opens;
        await review.waitForLoadState("load");
        const ms = performance.now() - clicked;
        await popup.close();
        return { ms, review };
      };
      const adds: number[] = [];
      const opens: number[] = [];
      let reviewUrl = "";
      await (await addOnce()).review.close(); // warm-up
      for (let i = 0; i < ADDS; i++) {
        const { ms, review } = await addOnce();
        adds.push(ms);
        reviewUrl = review.url();
        await review.close();
      }
      // The baseline: the same kind of review page, opened from a tab (no extension in the way).
      for (let i = 0; i <= ADDS; i++) {
        const tab = await context.newPage();
        const started = performance.now();
        await tab.goto(reviewUrl, { waitUntil: "load" });
        if (i > 0) opens.push(performance.now() - started);
        await tab.close();
      }
      const row = (label: string, values: number[]) =>
        `| ${label} | ${Math.round(percentile(values, 50))} ms | ${Math.round(percentile(values, 95))} ms | ${Math.round(Math.max(...values))} ms |`;
      const p95 = percentile(adds, 95);
      const body = `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:extension\` on this machine (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}): the real server on PostgreSQL, the unpacked extension in Debian's Chromium at 1280×800 (headless, a persistent context), a typical app page (a 200-row invoice table, ${Math.round(appPage().length / 1024)} KB of HTML); ${ADDS} adds after one warm-up, from the click on “Add this page” in the popup to the review page Redline opens having loaded.

| | p50 | p95 | max |
|---|---|---|---|
${row("Opening a review page from a tab (baseline)", opens)}
${row("Add this page: click → the page open in Redline", adds)}

Goal: ≤ 3 s from the click to the page opening in Redline — **${p95 <= 3000 ? "met" : "not met"}** (p95 ${Math.round(p95)} ms; the extension's own part, serializing the tab, capturing its pixels and uploading, is ${Math.round(percentile(adds, 50) - percentile(opens, 50))} ms at p50).`;
      console.log(body);
      await writeSection("Browser extension: add this page (#31)", body);
    } finally {
      await extension.close();
    }
  } finally {
    // The server ends before its database goes.
    await new Promise((resolve) => {
      server.process.once("exit", resolve);
      server.process.kill();
    });
    site.close();
    await database.drop().catch(() => {});
  }
}

await main();
