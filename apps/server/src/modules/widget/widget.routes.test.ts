import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ticketEntries, tickets } from "../../db/schema/index.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";

const SITE = "https://shop.example.com";
const WIDGET = path.resolve(import.meta.dirname, "../../../../../packages/widget");

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const picture = (format: "png" | "jpeg", width = 64, height = 40) =>
  sharp({ create: { width, height, channels: 3, background: "#3366cc" } })
    [format]()
    .toBuffer();

/** An anchor as @redline/anchoring's describe() makes it, for the report's element. */
const PAY_ANCHOR = {
  v: 1,
  querySelector: "#pay",
  selectors: { css: "#pay", xpath: "/html/body/main/button", idPath: "#pay" },
  fingerprint: { tag: "button", text: "Pay now" },
  dot: { x: 0.5, y: 0.5 },
};

function reportOf(key: string, overrides: Record<string, unknown> = {}) {
  return {
    key,
    title: "",
    note: "The checkout button does nothing\nI clicked it twice.",
    reporter: { name: "Gail Guest", email: "gail@example.com" },
    report: {
      pageUrl: "https://shop.example.com/checkout?step=2",
      pageTitle: "Checkout",
      element: { selector: "#pay", text: "Pay now", tag: "button", anchor: PAY_ANCHOR },
      region: { x: 10, y: 20, width: 120, height: 40 },
      viewport: { width: 1280, height: 800, devicePixelRatio: 2 },
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36",
      browser: "Chrome 140",
      os: "Linux",
      console: [{ level: "error", message: "TypeError: pay is not a function", at: 1_700_000_000_000 }],
      failedRequests: [
        { method: "POST", url: "https://shop.example.com/api/pay", status: 500, at: 1_700_000_000_100 },
      ],
    },
    ...overrides,
  };
}

interface Sent {
  report?: unknown;
  /** Raw text for the `report` field (malformed payloads). */
  reportText?: string;
  screenshot?: { bytes: Buffer; type: string } | null;
  replay?: Buffer | null;
  origin?: string | null;
}

describe.each(routeDrivers())("widget (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let commenter: Person;
  let stranger: Person;
  let projectId: string;
  let key: string;

  const send = async ({ report, reportText, screenshot, replay, origin = SITE }: Sent) => {
    const form = new FormData();
    form.append("report", reportText ?? JSON.stringify(report));
    if (screenshot)
      form.append(
        "screenshot",
        new Blob([new Uint8Array(screenshot.bytes)], { type: screenshot.type }),
        "s.png",
      );
    if (replay)
      form.append("replay", new Blob([new Uint8Array(replay)], { type: "application/json" }), "r.json");
    const response = await fetch(`${t.url}/api/widget/reports`, {
      method: "POST",
      body: form,
      headers: origin ? { origin } : {},
    });
    const text = await response.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body, headers: response.headers };
  };
  const storedFiles = () => {
    const dir = path.join(t.ctx.config.filesDir, "tickets", projectId);
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  beforeAll(async () => {
    t = await startTestApp({ driver });
    [owner, editor, commenter, stranger] = await Promise.all([
      signUpPerson(t, "owner", "Olivia Owner"),
      signUpPerson(t, "editor"),
      signUpPerson(t, "commenter"),
      signUpPerson(t, "stranger"),
    ]);
    projectId = (await owner.client.post("/api/projects", { title: "Shop bugs", type: "browse" })).body.data
      .id;
    for (const [person, access] of [
      [editor, "edit"],
      [commenter, "comment"],
    ] as const)
      await owner.client.post(`/api/projects/${projectId}/members`, { email: person.address, access });
    const settings = await editor.client.put(`/api/projects/${projectId}/widget`, { allowedOrigins: [SITE] });
    key = settings.body.data.key;
  });
  afterAll(() => t.close());

  describe("settings", () => {
    it("gives the project's editors a key and the snippet, made on first read and kept", async () => {
      const first = await owner.client.get(`/api/projects/${projectId}/widget`);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({
        projectId,
        key: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
        allowedOrigins: [SITE],
        snippet: `<script src="${t.url}/widget/v1/redline.js" data-key="${first.body.data.key}" async></script>`,
      });
      expect((await editor.client.get(`/api/projects/${projectId}/widget`)).body.data.key).toBe(
        first.body.data.key,
      );
    });

    it("stores allowed origins as browsers send them, each once", async () => {
      const saved = await editor.client.put(`/api/projects/${projectId}/widget`, {
        allowedOrigins: [
          "HTTPS://Shop.Example.com",
          SITE,
          "http://localhost:8080",
          "https://shop.example.com:443",
        ],
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data.allowedOrigins).toEqual([SITE, "http://localhost:8080"]);
      await editor.client.put(`/api/projects/${projectId}/widget`, { allowedOrigins: [SITE] });
    });

    it("refuses commenters (403), strangers (404) and origins that are not origins (400)", async () => {
      await expectRefused(t, () => commenter.client.get(`/api/projects/${projectId}/widget`), 403);
      await expectRefused(t, () => stranger.client.get(`/api/projects/${projectId}/widget`), 404);
      await expectRefused(
        t,
        () =>
          commenter.client.put(`/api/projects/${projectId}/widget`, {
            allowedOrigins: ["https://evil.example"],
          }),
        403,
      );
      await expectRefused(
        t,
        () =>
          stranger.client.put(`/api/projects/${projectId}/widget`, {
            allowedOrigins: ["https://evil.example"],
          }),
        404,
      );
      for (const origin of [
        "https://shop.example.com/path",
        "javascript:alert(1)",
        "shop.example.com",
        "*",
        "https://shop.example.com:99999",
      ])
        await expectRefused(
          t,
          () => editor.client.put(`/api/projects/${projectId}/widget`, { allowedOrigins: [origin] }),
          400,
        );
    });

    it("exists only on bug-tracking projects", async () => {
      const web = (await owner.client.post("/api/projects", { title: "Site" })).body.data.id;
      await expectRefused(t, () => owner.client.get(`/api/projects/${web}/widget`), 404);
    });
  });

  describe("intake", () => {
    it("files a report from an allowed origin into triage, with the guest, the report and the screenshot", async () => {
      const report = reportOf(key);
      const response = await send({
        report,
        screenshot: { bytes: await picture("jpeg"), type: "image/jpeg" },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.headers.get("access-control-allow-origin")).toBe(SITE);
      expect(response.body.data).toEqual({
        id: expect.any(String),
        number: expect.any(Number),
        // Where and with what its reporter's recording may follow (widget-video.routes.test.ts).
        video: {
          uploads: `/api/widget/tickets/${response.body.data.id}/videos`,
          attach: `/api/widget/tickets/${response.body.data.id}/video`,
          token: expect.stringMatching(/^[\w-]+\.\d+\.[\w-]+$/),
          expiresAt: expect.any(String),
        },
      });

      const [row] = await t.ctx.database.db
        .select()
        .from(tickets)
        .where(eq(tickets.id, response.body.data.id));
      expect(row).toMatchObject({
        projectId,
        listId: null,
        intake: "triage",
        title: "The checkout button does nothing",
        reporterId: null,
        reporterName: "Gail Guest",
        reporterEmail: "gail@example.com",
        report: report.report,
        // The clicked element as the one target type a comment's pin has (issue #29).
        target: { kind: "element", anchor: PAY_ANCHOR, point: { x: 0.5, y: 0.5 } },
        replayKey: null,
      });
      expect(row!.screenshotKey).toMatch(new RegExp(`^tickets/${projectId}/[0-9a-f]{64}\\.png$`));
      // Re-encoded: a JPEG was sent, a PNG is stored.
      const stored = await t.ctx.storage.get(row!.screenshotKey!);
      const bytes = await readAll(stored!.stream);
      expect((await sharp(bytes).metadata()).format).toBe("png");
      expect(row!.screenshotBytes).toBe(bytes.length);
      const entries = await t.ctx.database.db
        .select()
        .from(ticketEntries)
        .where(eq(ticketEntries.ticketId, row!.id));
      expect(entries.map((entry) => [entry.guestName, entry.body])).toEqual([["Gail Guest", report.note]]);

      // The owner's board shows it in triage.
      const board = await owner.client.get(`/api/projects/${projectId}/board`);
      if (board.status !== 404) {
        const card = board.body.data.tickets.find((ticket: any) => ticket.id === row!.id);
        expect(card).toMatchObject({
          listId: null,
          intake: "triage",
          target: { kind: "element", anchor: PAY_ANCHOR },
          reporter: { displayName: "Gail Guest", isGuest: true },
        });
      }
    });

    it("still takes a report from an older widget script, whose element has no anchor", async () => {
      const older = reportOf(key);
      older.report.element = { selector: "#pay", text: "Pay now", tag: "button" } as never;
      const response = await send({ report: older });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      const [row] = await t.ctx.database.db
        .select()
        .from(tickets)
        .where(eq(tickets.id, response.body.data.id));
      expect(row!.report!.element).toEqual({
        selector: "#pay",
        text: "Pay now",
        tag: "button",
        anchor: null,
      });
      expect(row!.target).toEqual({
        kind: "element",
        anchor: null,
        selector: "#pay",
        point: { x: 0.5, y: 0.5 },
      });
    });

    it("keeps a replay of rrweb events beside it", async () => {
      const events = [
        { type: 4, data: { href: "https://shop.example.com/", width: 1280, height: 800 }, timestamp: 1 },
        { type: 2, data: { node: {} }, timestamp: 2 },
      ];
      const response = await send({
        report: reportOf(key, { note: "With a replay" }),
        screenshot: { bytes: await picture("png"), type: "image/png" },
        replay: Buffer.from(JSON.stringify(events)),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      const [row] = await t.ctx.database.db
        .select()
        .from(tickets)
        .where(eq(tickets.id, response.body.data.id));
      expect(row!.replayKey).toMatch(new RegExp(`^tickets/${projectId}/[0-9a-f]{64}\\.replay\\.json$`));
      const stored = await t.ctx.storage.get(row!.replayKey!);
      expect(JSON.parse((await readAll(stored!.stream)).toString("utf8"))).toEqual(events);
    });

    it("answers a CORS preflight for allowed origins only", async () => {
      const ask = (origin: string) =>
        fetch(`${t.url}/api/widget/reports`, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST" },
        });
      const allowed = await ask(SITE);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(SITE);
      const refused = await ask("https://evil.example");
      expect(refused.status).toBe(403);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    });

    it("refuses bad reports with a clear status and stores nothing", async () => {
      const png = { bytes: await picture("png"), type: "image/png" };
      const good = reportOf(key);
      const filesBefore = storedFiles();
      const refusals: [string, Sent, number, string?][] = [
        [
          "an unknown key",
          { report: reportOf("not-a-real-key-at-all"), screenshot: png },
          404,
          "widget-key-unknown",
        ],
        [
          "a forged key",
          { report: reportOf(`${key.slice(0, -2)}xx`), screenshot: png },
          404,
          "widget-key-unknown",
        ],
        [
          "another origin",
          { report: good, screenshot: png, origin: "https://evil.example" },
          403,
          "origin-not-allowed",
        ],
        [
          "an origin on another port",
          { report: good, screenshot: png, origin: `${SITE}:8443` },
          403,
          "origin-not-allowed",
        ],
        ["no origin", { report: good, screenshot: png, origin: null }, 403, "origin-not-allowed"],
        ["a report that is not JSON", { reportText: "{not json", screenshot: png }, 400],
        [
          "a report without a note",
          { report: reportOf(key, { note: "" }), screenshot: png },
          400,
          "validation",
        ],
        [
          "a report without a reporter's e-mail",
          { report: reportOf(key, { reporter: { name: "Gail" } }), screenshot: png },
          400,
        ],
        [
          "a report with fields of its own (form values)",
          {
            report: { ...good, report: { ...good.report, formValues: { password: "hunter2" } } },
            screenshot: png,
          },
          400,
        ],
        [
          "an element anchor that is not an anchor",
          {
            report: {
              ...good,
              report: { ...good.report, element: { ...good.report.element, anchor: { v: 2, css: "#pay" } } },
            },
            screenshot: png,
          },
          400,
          "validation",
        ],
        [
          "an element anchor over 16 KB",
          {
            report: {
              ...good,
              report: {
                ...good.report,
                element: {
                  ...good.report.element,
                  anchor: { ...PAY_ANCHOR, fingerprint: { text: "x".repeat(17_000) } },
                },
              },
            },
            screenshot: png,
          },
          400,
          "validation",
        ],
        [
          "a screenshot that is not an image",
          { report: good, screenshot: { bytes: Buffer.from("<svg onload=alert(1)>"), type: "image/png" } },
          400,
          "invalid-image",
        ],
        [
          "a GIF screenshot",
          {
            report: good,
            screenshot: {
              bytes: await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
                .gif()
                .toBuffer(),
              type: "image/gif",
            },
          },
          400,
          "invalid-image",
        ],
        [
          "a screenshot over 5 MB",
          { report: good, screenshot: { bytes: Buffer.alloc(5 * 1024 * 1024 + 10, 1), type: "image/png" } },
          413,
        ],
        [
          "a replay over 2 MB",
          {
            report: good,
            screenshot: png,
            replay: Buffer.from(`[${'{"type":3,"timestamp":1},'.repeat(90_000)}{"type":3,"timestamp":2}]`),
          },
          413,
        ],
        [
          "a replay that is not events",
          { report: good, screenshot: png, replay: Buffer.from('{"hello":1}') },
          400,
          "invalid-replay",
        ],
      ];
      for (const [what, sent, status, code] of refusals) {
        const response = await expectRefused(t, () => send(sent), status, code);
        expect(response.body.message, what).toEqual(expect.any(String));
      }
      const notMultipart = await expectRefused(
        t,
        () =>
          fetch(`${t.url}/api/widget/reports`, {
            method: "POST",
            headers: { origin: SITE, "content-type": "application/json" },
            body: JSON.stringify(good),
          }).then(async (response) => ({ status: response.status, body: await response.json() })),
        400,
      );
      expect(notMultipart.body.code).toBe("expected-multipart");
      expect(storedFiles()).toEqual(filesBefore);
    });

    it("rate-limits each key (429 with Retry-After) and stores nothing then", async () => {
      // The window already holds this minute's 30 reports.
      await t.ctx.database.executeSql(
        `INSERT INTO rate_limits (id, key, count, last_request) VALUES ('widget-test', $1, 30, $2)
         ON CONFLICT (key) DO UPDATE SET count = 30, last_request = $2`,
        [`widget:${key}`, Date.now()],
      );
      const response = (await expectRefused(
        t,
        async () =>
          send({ report: reportOf(key), screenshot: { bytes: await picture("png"), type: "image/png" } }),
        429,
        "rate-limited",
      )) as Awaited<ReturnType<typeof send>>;
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(response.headers.get("access-control-allow-origin")).toBe(SITE);
      await t.ctx.database.executeSql(`DELETE FROM rate_limits WHERE key = $1`, [`widget:${key}`]);
    });

    it("needs no session and no same-origin Origin (it is the site's page that calls)", async () => {
      // A signed-in member's cookies are not needed and not used: the guest is the reporter.
      const response = await send({ report: reportOf(key, { note: "From the site" }) });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    });
  });

  describe("script", () => {
    beforeAll(() => {
      if (!existsSync(path.join(WIDGET, "dist/redline.js")))
        execFileSync(process.execPath, ["build.mjs"], { cwd: WIDGET, stdio: "pipe" });
    });

    it("serves the stub with a short cache and the chunks for a year, to any site", async () => {
      const stub = await fetch(`${t.url}/widget/v1/redline.js`);
      expect(stub.status).toBe(200);
      expect(stub.headers.get("content-type")).toMatch(/javascript/);
      expect(stub.headers.get("cache-control")).toMatch(/max-age=300\b/);
      expect(stub.headers.get("access-control-allow-origin")).toBe("*");
      expect(stub.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      const chunk = readdirSync(path.join(WIDGET, "dist")).find((file) => file.startsWith("reporter-"))!;
      const lazy = await fetch(`${t.url}/widget/v1/${chunk}`);
      expect(lazy.status).toBe(200);
      expect(lazy.headers.get("cache-control")).toContain("immutable");
      expect((await fetch(`${t.url}/widget/v1/nope.js`)).status).toBe(404);
      expect((await fetch(`${t.url}/widget/v1/..%2Fpackage.json`)).status).toBe(404);
    });

    it("sends each file compressed to a browser that accepts it, as it is to one that does not", async () => {
      const chunk = readdirSync(path.join(WIDGET, "dist")).find((file) => file.startsWith("screenshot-"))!;
      const onDisk = readFileSync(path.join(WIDGET, "dist", chunk), "utf8");
      const asked = (acceptEncoding: string) =>
        fetch(`${t.url}/widget/v1/${chunk}`, { headers: { "accept-encoding": acceptEncoding } });
      const brotli = await asked("gzip, deflate, br, zstd");
      expect(brotli.headers.get("content-encoding")).toBe("br");
      expect(brotli.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(Number(brotli.headers.get("content-length"))).toBeLessThan(onDisk.length / 2);
      expect(await brotli.text()).toBe(onDisk);
      const gzipped = await asked("gzip");
      expect(gzipped.headers.get("content-encoding")).toBe("gzip");
      expect(await gzipped.text()).toBe(onDisk);
      const plain = await asked("identity");
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(Number(plain.headers.get("content-length"))).toBe(Buffer.byteLength(onDisk));
    });
  });
});
