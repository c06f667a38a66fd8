/**
 * The widget in Chromium on a site of another origin: what the stub does at load (one element, ring
 * buffers, nothing else fetched), the reporter's flow to a sent report, the privacy rules (input values
 * and `data-redline-mask` out of the report and the screenshot), the hidden trigger, the offline queue,
 * and the opt-in replay.
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Anchor } from "@redline/anchoring";
import {
  openPage as anchoringPage,
  anchorTruth,
  closePage,
  describeTruth,
  launchChromium,
  verdict,
} from "@redline/anchoring/testing";
import { ticketTargetOf } from "@redline/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST } from "./testing/bundle.ts";
import { SECRETS, shopPage } from "./testing/fixtures.ts";
import { startWidgetHarness, type WidgetHarness } from "./testing/harness.ts";

let h: WidgetHarness;
beforeAll(async () => {
  h = await startWidgetHarness();
}, 60_000);
afterAll(() => h?.close());

async function openPage(html: string, query = "", viewport = { width: 1000, height: 700 }) {
  const context = await h.browser.newContext({
    viewport,
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const name = `page-${Math.random().toString(36).slice(2)}`;
  await page.goto(h.page(name, html) + query);
  await page.waitForLoadState("load");
  // The page's own failures (fetches, timers) have happened.
  await page.waitForTimeout(400);
  return page;
}

const widget = (page: Page) => page.locator("redline-widget");

async function report(page: Page, note: string, at?: { x: number; y: number }) {
  await widget(page).getByRole("button", { name: "Report a bug" }).click();
  await page.locator("redline-widget .pick-layer").waitFor();
  const pay = at ? null : await page.locator("#pay").boundingBox();
  const point = at ?? { x: pay!.x + 10, y: pay!.y + 10 };
  await page.mouse.move(point.x, point.y);
  await page.mouse.down();
  await page.mouse.up();
  const dialog = widget(page).getByRole("dialog", { name: "Report a bug" });
  await dialog.waitFor();
  await dialog.getByLabel("Note").fill(note);
  if (await dialog.getByLabel("Your name").isVisible()) {
    await dialog.getByLabel("Your name").fill("Gail Guest");
    await dialog.getByLabel("Your e-mail").fill("gail@example.com");
  }
  return dialog;
}

describe("the stub", () => {
  it("is small, adds one element with the launcher, and loads nothing more until used", async () => {
    const stub = readFileSync(path.join(DIST, "redline.js"));
    expect(gzipSync(stub).length).toBeLessThanOrEqual(15 * 1024);
    // Its own budget (docs/ARCHITECTURE.md): everything else is a lazy chunk.
    expect(gzipSync(stub).length).toBeLessThanOrEqual(2.8 * 1024);
    const before = h.served.length;
    const page = await openPage(shopPage(h.appOrigin));
    expect(await page.locator("redline-widget").count()).toBe(1);
    await expect(widget(page).getByRole("button", { name: "Report a bug" }).isVisible()).resolves.toBe(true);
    expect(h.served.slice(before)).toEqual(["redline.js"]);
    // The page's console still works as before.
    expect(await page.evaluate(() => typeof console.log)).toBe("function");
    await page.context().close();
  });

  it("starts on a page holding an element whose id is its global's name (issue #29)", async () => {
    const html = shopPage(h.appOrigin).replace("<main", '<div id="__redlineWidget"></div><main');
    expect(html).toContain('id="__redlineWidget"');
    const page = await openPage(html);
    await expect(widget(page).getByRole("button", { name: "Report a bug" }).isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => typeof (window as any).__redlineWidget.open)).toBe("function");
    await page.context().close();
  });

  it("shows its launcher although the page defined <redline-widget> first, to refuse a shadow root", async () => {
    const hostile = `<script>customElements.define("redline-widget", class extends HTMLElement {
      static disabledFeatures = ["shadow"];
      attachShadow() { throw new Error("hostile page"); }
    });</script>`;
    const html = shopPage(h.appOrigin).replace("<script ", `${hostile}<script `);
    expect(html).toContain("hostile page");
    const page = await openPage(html);
    const launcher = page.locator("redline-widget-1").getByRole("button", { name: "Report a bug" });
    await expect(launcher.isVisible()).resolves.toBe(true);
    await page.context().close();
  });
});

describe("the picker on a hostile page", () => {
  /**
   * Before the widget: the page names elements like the document's hit tests and the kit's global and
   * classes, and replaces the hit tests and addEventListener on document and window themselves.
   */
  const HOSTILE = `<img name="elementsFromPoint" alt=""><div id="__redlineWidget" class="pick-layer"></div>
<script>
  document.elementFromPoint = () => document.body;
  window.addEventListener = () => undefined;
  document.addEventListener = () => undefined;
</script>`;

  it("still picks the element clicked, names it, and cancels on Escape", async () => {
    const html = shopPage(h.appOrigin).replace("<main>", `${HOSTILE}<main>`);
    expect(html).toContain('name="elementsFromPoint"');
    const page = await openPage(html);
    expect(await page.evaluate(() => document.elementsFromPoint instanceof HTMLImageElement)).toBe(true);

    await widget(page).getByRole("button", { name: "Report a bug" }).click();
    await page.locator("redline-widget .pick-layer").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("redline-widget .pick-layer").waitFor({ state: "detached" });

    const dialog = await report(page, "Pay does nothing here either");
    await dialog.getByRole("button", { name: "Review what will be sent" }).click();
    await dialog.getByRole("button", { name: "Send" }).click();
    await widget(page)
      .getByText(/was sent/)
      .waitFor();
    const element = h.received.at(-1)!.report.report.element;
    expect(element).toMatchObject({ selector: "#pay", tag: "button", anchor: { querySelector: "#pay" } });
    await page.context().close();
  });

  it("marks a dragged region, with no element", async () => {
    const page = await openPage(shopPage(h.appOrigin).replace("<main>", `${HOSTILE}<main>`));
    await widget(page).getByRole("button", { name: "Report a bug" }).click();
    await page.locator("redline-widget .pick-layer").waitFor();
    await page.mouse.move(100, 120);
    await page.mouse.down();
    await page.mouse.move(200, 160, { steps: 4 });
    await page.mouse.move(300, 220, { steps: 4 });
    await page.mouse.up();
    const dialog = widget(page).getByRole("dialog", { name: "Report a bug" });
    await dialog.getByLabel("Note").fill("This area");
    if (await dialog.getByLabel("Your name").isVisible()) {
      await dialog.getByLabel("Your name").fill("Gail Guest");
      await dialog.getByLabel("Your e-mail").fill("gail@example.com");
    }
    await dialog.getByRole("button", { name: "Review what will be sent" }).click();
    await dialog.getByRole("button", { name: "Send" }).click();
    await widget(page)
      .getByText(/was sent/)
      .waitFor();
    const sent = h.received.at(-1)!.report.report;
    expect(sent.element).toBeNull();
    expect(sent.region).toEqual({ x: 100, y: 120, width: 200, height: 100 });
    await page.context().close();
  });
});

describe("a report", () => {
  it("carries the ring buffers, the element and the environment, and nothing masked", async () => {
    const page = await openPage(shopPage(h.appOrigin, { logs: 60 }));
    const dialog = await report(page, "Pay does nothing");
    await dialog.getByRole("button", { name: "Review what will be sent" }).click();
    const preview = widget(page).getByLabel("What will be sent");
    await preview.waitFor();
    const shown = (await preview.textContent()) ?? "";
    expect(shown).toContain("[error] Payment failed: card declined");
    expect(shown).toContain("→ 404");
    expect(shown).toContain("→ network error");
    const sent = h.received.length;
    await dialog.getByRole("button", { name: "Send" }).click();
    await widget(page)
      .getByText(/report #\d+ was sent/)
      .waitFor();
    expect(h.received.length).toBe(sent + 1);
    const { report: body, screenshot } = h.received.at(-1)!;

    expect(body).toMatchObject({
      key: "test-key-123456",
      note: "Pay does nothing",
      reporter: { name: "Gail Guest", email: "gail@example.com" },
    });
    const r = body.report;
    expect(r.pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/page-/);
    expect(r.pageTitle).toBe("Shop checkout");
    // Named as a comment's pin is: @redline/anchoring's anchor, whose shortest selector is the readable one.
    expect(r.element).toMatchObject({ selector: "#pay", text: "Pay now", tag: "button" });
    expect(r.element.anchor).toMatchObject({
      v: 1,
      querySelector: "#pay",
      fingerprint: expect.objectContaining({ tag: "button" }),
      dot: { x: expect.any(Number), y: expect.any(Number) },
    });
    expect(r.viewport).toEqual({ width: 1000, height: 700, devicePixelRatio: 1 });
    expect(r.browser).toMatch(/^Chrome \d+$/);
    expect(r.os).toBe("Linux");

    // Console: the last 50, with errors, uncaught errors and rejections among them.
    expect(r.console.length).toBe(50);
    const messages = r.console.map((entry: any) => `${entry.level}: ${entry.message}`);
    expect(messages).not.toContain("log: log line 0");
    expect(messages).toContain("log: log line 59");
    expect(messages).toContain("info: info here");
    expect(messages).toContain('warn: careful {"step":2}');
    expect(messages).toContain("error: Payment failed: card declined");
    expect(messages.some((m: string) => m.startsWith("uncaught: Error: Boom from the page"))).toBe(true);
    expect(messages.some((m: string) => m.startsWith("unhandledrejection: Error: Nobody caught me"))).toBe(
      true,
    );
    // Failed requests: fetch 404, fetch network error, XHR 500; the successful one is not there.
    const requests = r.failedRequests.map(
      (entry: any) => `${entry.method} ${new URL(entry.url).pathname} ${entry.status}`,
    );
    expect(requests.sort()).toEqual(["GET /api/missing 404", "GET /unreachable 0", "POST /api/broken 500"]);

    // Privacy: no input value and no masked text anywhere in what was sent.
    const text = JSON.stringify(body);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);

    // The screenshot: the viewport, every typed value drawn as the same dots, the masked block blurred.
    expect(await sharp(screenshot!).metadata()).toMatchObject({ format: "png", width: 1000, height: 700 });
    const pixels = async (selector: string, width?: number) => {
      const box = (await page.locator(selector).boundingBox())!;
      const area = {
        left: Math.round(box.x + 4),
        top: Math.round(box.y + 4),
        width: width ?? Math.round(box.width - 8),
        height: 28,
      };
      return (await sharp(screenshot!).extract(area).greyscale().raw().toBuffer({ resolveWithObject: true }))
        .data;
    };
    // The password (bullets on the page) and the card number (digits on the page) look the same in it.
    expect((await pixels("#card", 400)).equals(await pixels("#password", 400))).toBe(true);
    expect((await pixels("#card", 400)).equals(await pixels("#notes", 400))).toBe(true);
    // Black text at 28 px gives black pixels; the blurred block has none, the heading has.
    expect(Math.min(...(await pixels("#ssn")))).toBeGreaterThan(60);
    expect(Math.min(...(await pixels("h1", 100)))).toBeLessThan(60);
    await page.context().close();
  });

  it("asks the guest's name and e-mail once, then remembers them", async () => {
    const page = await openPage(shopPage(h.appOrigin));
    const first = await report(page, "First");
    await first.getByRole("button", { name: "Review what will be sent" }).click();
    await first.getByRole("button", { name: "Send" }).click();
    await widget(page)
      .getByText(/was sent/)
      .waitFor();
    await first.getByRole("button", { name: "Done" }).click();
    await page.reload();
    await page.waitForLoadState("load");
    const second = await report(page, "Second");
    await expect(second.getByText("Sending as Gail Guest <gail@example.com>").isVisible()).resolves.toBe(
      true,
    );
    await expect(second.getByLabel("Your name").isVisible()).resolves.toBe(false);
    await page.context().close();
  });
});

describe("the screenshot and the console", () => {
  /** Sends a report of the page and returns what the intake received. */
  async function send(page: Page) {
    const dialog = await report(page, "Look here");
    await dialog.getByRole("button", { name: "Review what will be sent" }).click();
    await dialog.getByRole("button", { name: "Send" }).click();
    await widget(page)
      .getByText(/was sent/)
      .waitFor();
    return h.received.at(-1)!;
  }

  /** The box of the pure red pixels of a PNG, in its pixels. */
  async function redBox(png: Buffer) {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    let [left, top, right, bottom] = [Infinity, Infinity, -1, -1];
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) {
        const i = (y * info.width + x) * info.channels;
        if (data[i]! > 240 && data[i + 1]! < 15 && data[i + 2]! < 15) {
          [left, top] = [Math.min(left, x), Math.min(top, y)];
          [right, bottom] = [Math.max(right, x), Math.max(bottom, y)];
        }
      }
    return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
  }

  it("shows each element where the visitor saw it, at the top of the page and scrolled", async () => {
    // The heading's default margin is the first thing in <body>: it collapses through body and html.
    const page = await openPage(`<!doctype html><html><head><meta charset="utf-8"><title>Landing</title>
<script src="${h.appOrigin}/widget/v1/redline.js" data-key="test-key-123456" async></script></head>
<body><h1>Welcome</h1><p>Intro</p><div id="mark" style="width:120px;height:40px;margin-left:200px;background:#f00"></div>
<button id="pay">Pay now</button><div style="height:2000px"></div></body></html>`);
    for (const scrollY of [0, 60]) {
      await page.evaluate((y) => window.scrollTo(0, y), scrollY);
      const seen = (await page.locator("#mark").boundingBox())!;
      const { screenshot } = await send(page);
      await widget(page).getByRole("button", { name: "Done" }).click();
      const drawn = await redBox(screenshot!);
      expect(
        { x: drawn.x, y: drawn.y, width: drawn.width, height: drawn.height },
        `scrolled ${scrollY}`,
      ).toEqual({
        x: Math.round(seen.x),
        y: Math.round(seen.y),
        width: 120,
        height: 40,
      });
    }
    await page.context().close();
  });

  it("leaves the widget's own console output out of the report (the screenshot library's warnings)", async () => {
    // A frame of another origin, which snapdom cannot draw and warns about.
    const html = shopPage(h.appOrigin).replace(
      "</main>",
      `<iframe src="${h.appOrigin}/widget/v1/redline.js" width="200" height="80"></iframe></main>`,
    );
    const page = await openPage(html);
    const printed: string[] = [];
    page.on("console", (message) => printed.push(message.text()));
    const { report: body } = await send(page);
    // It still reaches the console, as the page's own output does…
    expect(printed.some((text) => /snapdom/i.test(text))).toBe(true);
    // …but the report holds only the page's.
    const messages = body.report.console.map((entry: { message: string }) => entry.message);
    expect(messages).toContain("Payment failed: card declined");
    expect(messages.filter((m: string) => /snapdom|Redline widget/i.test(m))).toEqual([]);
    await page.context().close();
  });
});

describe("the hidden trigger", () => {
  it("shows no launcher, and opens with Alt+Shift+B or ?redline=1", async () => {
    const page = await openPage(shopPage(h.appOrigin, { trigger: "hidden" }));
    await expect(widget(page).getByRole("button", { name: "Report a bug" }).count()).resolves.toBe(0);
    await page.keyboard.press("Alt+Shift+KeyB");
    await page.locator("redline-widget .pick-layer").waitFor();
    await page.keyboard.press("Escape");
    await expect(page.locator("redline-widget .pick-layer").count()).resolves.toBe(0);
    await page.context().close();

    const opened = await openPage(shopPage(h.appOrigin, { trigger: "hidden" }), "?redline=1");
    await opened.locator("redline-widget .pick-layer").waitFor();
    await opened.context().close();
  });
});

describe("offline", () => {
  it("queues a report and sends it when the connection returns", async () => {
    const page = await openPage(shopPage(h.appOrigin));
    const dialog = await report(page, "Sent later");
    await dialog.getByRole("button", { name: "Review what will be sent" }).click();
    await page.context().setOffline(true);
    const before = h.received.length;
    await dialog.getByRole("button", { name: "Send" }).click();
    await widget(page)
      .getByText(/offline/)
      .waitFor();
    expect(
      await page.evaluate(
        () => JSON.parse(localStorage.getItem("redline-widget:queue:test-key-123456") ?? "[]").length,
      ),
    ).toBe(1);
    expect(h.received.length).toBe(before);
    await page.context().setOffline(false);
    await expect.poll(() => h.received.length, { timeout: 10_000 }).toBe(before + 1);
    expect(h.received.at(-1)!.report.note).toBe("Sent later");
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem("redline-widget:queue:test-key-123456")))
      .toBeNull();
    await page.context().close();
  });
});

describe("replay", () => {
  it("is offered only when the site opted in, records from page load and masks inputs", async () => {
    const plain = await openPage(shopPage(h.appOrigin));
    const noReplay = await report(plain, "No replay");
    await expect(noReplay.getByLabel(/Attach a replay/).count()).resolves.toBe(0);
    await plain.context().close();

    const before = h.served.length;
    const page = await openPage(shopPage(h.appOrigin, { replay: true }));
    // The recorder's chunk came with the page, before any click.
    expect(h.served.slice(before).some((file) => file.startsWith("replay-"))).toBe(true);
    await page.locator("#card").fill("5555 4444 3333 2222");
    const dialog = await report(page, "With replay");
    await dialog.getByLabel(/Attach a replay/).check();
    await dialog.getByRole("button", { name: "Review what will be sent" }).click();
    await expect(
      widget(page)
        .getByText(/Attached \(\d+ KB\)/)
        .isVisible(),
    ).resolves.toBe(true);
    await dialog.getByRole("button", { name: "Send" }).click();
    await widget(page)
      .getByText(/was sent/)
      .waitFor();
    const { replay } = h.received.at(-1)!;
    const events = JSON.parse(replay!);
    expect(events[0].type).toBe(4); // Meta, then the full snapshot the segment starts with.
    expect(events.some((event: any) => event.type === 2)).toBe(true);
    for (const secret of [...Object.values(SECRETS), "5555 4444 3333 2222"])
      expect(replay).not.toContain(secret);
    await page.context().close();
  });
});

it("builds content-hashed chunks beside the stub", () => {
  const files = readdirSync(DIST);
  for (const name of ["reporter", "screenshot", "replay"])
    expect(files.some((file) => new RegExp(`^${name}-[A-Z0-9]{8}\\.js$`).test(file))).toBe(true);
});

describe("a ticket's element", () => {
  const FIXTURES = path.resolve(import.meta.dirname, "../../anchoring/src/fixtures");
  const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
  const TRUTH = "data-t";
  // Kept and changed (moved, re-sorted, edited) in catalog.mutated.html, and one removed with its card.
  const TARGETS = ["title", "nav-shop", "price-1", "buy-3", "email", "buy-2"];

  it("is an element target with the click point, re-anchored on a newer version as a comment's pin is", async () => {
    const original = fixture("catalog.original.html");
    const withWidget = original.replace(
      "</head>",
      `<script src="${h.appOrigin}/widget/v1/redline.js" data-key="test-key-123456" async></script></head>`,
    );
    expect(withWidget).toContain("redline.js");
    const made: Record<string, Anchor> = {};
    for (const truth of TARGETS) {
      // The anchoring corpus's viewport: the fingerprint keeps the element's box.
      const page = await openPage(withWidget, "", { width: 1280, height: 800 });
      // Where a comment's pin is placed in the anchoring corpus: a quarter across, half down; the truth
      // attributes go before anything is named.
      const point = await page.evaluate(
        ({ truth, attribute }) => {
          const element = document.querySelector(`[${attribute}="${truth}"]`)!;
          element.scrollIntoView({ block: "center" });
          for (const marked of Array.from(document.querySelectorAll(`[${attribute}]`)))
            marked.removeAttribute(attribute);
          const box = element.getBoundingClientRect();
          return { x: box.left + box.width * 0.25, y: box.top + box.height * 0.5 };
        },
        { truth, attribute: TRUTH },
      );
      const dialog = await report(page, `About ${truth}`, point);
      await dialog.getByRole("button", { name: "Review what will be sent" }).click();
      await dialog.getByRole("button", { name: "Send" }).click();
      await widget(page)
        .getByText(/was sent/)
        .waitFor();
      // The ticket's target, as the server stores it (tickets.target, ticketTargetOf): the element's anchor
      // and the click point, a fraction of its box — the one target type a comment's pin has (issue #29).
      const target = ticketTargetOf(h.received.at(-1)!.report.report);
      if (target?.kind !== "element" || !target.anchor) throw new Error(`no element target for ${truth}`);
      expect(target.anchor, truth).toMatchObject({ v: 1 });
      expect(target.point.x, truth).toBeCloseTo(0.25, 1);
      expect(target.point.y, truth).toBeCloseTo(0.5, 1);
      made[truth] = target.anchor as unknown as Anchor;
      await page.context().close();
    }

    // The comment's way: describe() in the page as the overlay calls it, for the same targets.
    const browser = await launchChromium();
    try {
      const described = await anchoringPage(browser, original);
      const comments = await describeTruth(described, TRUTH);
      await closePage(described);
      const figures = async (anchors: Record<string, Anchor>) => {
        const changed = await anchoringPage(browser, fixture("catalog.mutated.html"));
        const { outcomes, present } = await anchorTruth(changed, anchors, TRUTH);
        await closePage(changed);
        return Object.fromEntries(
          TARGETS.map((truth) => [
            truth,
            {
              verdict: verdict(truth, outcomes[truth]!, present.includes(truth)),
              status: outcomes[truth]!.status,
            },
          ]),
        );
      };
      const fromWidget = await figures(made);
      expect(fromWidget).toEqual(await figures(comments));
      expect(Object.values(fromWidget).map((figure) => figure.verdict)).not.toContain("wrong");
      expect(fromWidget.title!.verdict).toBe("correct");
      expect(fromWidget["buy-2"]!.verdict).toBe("correct");
    } finally {
      await browser.close();
    }
  }, 120_000);
});
