import type { InspectChange, RealtimeServerMessage } from "@redline/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ApiClient, signUpVerified } from "../../testing/http-client.ts";
import { routeIt } from "../../testing/route-it.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { drivers } from "../../testing/test-db.ts";

let counter = 0;
const email = (name: string) => `${name}-${Date.now().toString(36)}-${++counter}@example.com`;
const anchor = (selector: string) => ({
  v: 1,
  querySelector: selector,
  selectors: { css: selector, xpath: "/html/body/h1", idPath: null },
  fingerprint: { tag: "h1", text: "Hello" },
  dot: null,
});
const style = (selector: string, property: string, value: string, deviceWidth = 1280) => ({
  changeType: "style",
  anchor: anchor(selector),
  deviceWidth,
  property,
  value,
});
const text = (selector: string, before: string, after: string) => ({
  changeType: "text",
  anchor: anchor(selector),
  deviceWidth: 1280,
  before,
  after: { text: after, marks: [{ mark: "b", start: 0, end: 1 }] },
});
const png = () =>
  sharp({ create: { width: 32, height: 24, channels: 3, background: "#e5383b" } })
    .png()
    .toBuffer();

describe.each(drivers())("inspect changes (%s)", (driver) => {
  let t: TestApp;
  let owner: ApiClient;
  let editor: ApiClient;
  let commenter: ApiClient;
  let viewer: ApiClient;
  let projectId: string;

  let pageId: string;
  /** A fresh version per test, so tests do not see each other's changes. */
  const newVersion = async () =>
    (await owner.post(`/api/pages/${pageId}/versions`, {})).body.data.id as string;
  const list = async (versionId: string, client = owner): Promise<InspectChange[]> =>
    (await client.get(`/api/versions/${versionId}/changes`)).body.data;

  beforeAll(async () => {
    t = await startTestApp({ driver });
    const addresses = { editor: email("editor"), commenter: email("commenter"), viewer: email("viewer") };
    [owner, editor, commenter, viewer] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("owner"), undefined, "Olivia Owner"),
      signUpVerified(t.url, t.inbox!, addresses.editor, undefined, "Eddie Editor"),
      signUpVerified(t.url, t.inbox!, addresses.commenter),
      signUpVerified(t.url, t.inbox!, addresses.viewer),
    ]);
    projectId = (await owner.post("/api/projects", { title: "Inspect" })).body.data.id;
    for (const access of ["editor", "commenter", "viewer"] as const) {
      await owner.post(`/api/projects/${projectId}/members`, {
        email: addresses[access],
        access: { editor: "edit", commenter: "comment", viewer: "view" }[access],
      });
    }
    pageId = (await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/inspect" }))
      .body.data.pageId;
  });
  afterAll(() => t.close());

  routeIt(driver)(
    "saves changes, merging the same element, property and device size and counting the edits",
    async () => {
      const versionId = await newVersion();
      const first = await editor.post(`/api/versions/${versionId}/changes`, {
        changes: [
          style("h1", "color", "red"),
          style("h1", "color", "blue"),
          style("h1", "color", "green", 375),
          text("p.lead", "Welcome", "Welcome home"),
        ],
      });
      expect(first.status).toBe(200);
      expect(first.body.message).toBe("New changes have been saved successfully.");
      expect(first.body.data).toHaveLength(3);
      const second = await owner.post(`/api/versions/${versionId}/changes`, {
        changes: [style("h1", "color", "black"), text("p.lead", "Welcome home", "Hi")],
      });
      const byKey = Object.fromEntries(
        (second.body.data as InspectChange[]).map((c) => [
          `${c.querySelector} ${c.property} ${c.deviceSize}`,
          c,
        ]),
      );
      expect(byKey["h1 color default"]).toMatchObject({
        value: "black",
        count: 3,
        userId: expect.any(String),
        author: { displayName: "Olivia Owner" },
      });
      expect(byKey["h1 color mobile"]).toMatchObject({
        value: "green",
        count: 1,
        author: { displayName: "Eddie Editor" },
      });
      expect(byKey["p.lead text default"]).toMatchObject({
        changeType: "text",
        value: null,
        before: "Welcome",
        after: { text: "Hi", marks: [{ mark: "b", start: 0, end: 1 }] },
        count: 2,
      });
      // The changes of one save share their group time (the activity panel groups by it).
      expect(byKey["h1 color default"]!.groupCreatedAt).toBe(byKey["p.lead text default"]!.groupCreatedAt);
      expect(byKey["h1 color default"]!.groupCreatedAt).not.toBe(byKey["h1 color mobile"]!.groupCreatedAt);

      expect((await viewer.get(`/api/versions/${versionId}`)).body.data.numberOfSuggestions).toBe(3);
      const project = (await owner.get(`/api/projects/${projectId}`)).body.data;
      expect(project.abilities.suggestEdits).toBe(true);
      const version = project.pages
        .flatMap((p: { versions: { id: string }[] }) => p.versions)
        .find((v: { id: string }) => v.id === versionId);
      expect(version.numberOfSuggestions).toBe(3);
      expect((await commenter.get(`/api/projects/${projectId}`)).body.data.abilities.suggestEdits).toBe(
        false,
      );
    },
  );

  routeIt(driver)("merges four corner radii into one border-radius change", async () => {
    const versionId = await newVersion();
    await editor.post(`/api/versions/${versionId}/changes`, {
      changes: [
        style("img", "border-top-left-radius", "4px"),
        style("img", "border-top-right-radius", "8px"),
      ],
    });
    const saved = await owner.post(`/api/versions/${versionId}/changes`, {
      changes: [
        style("img", "border-bottom-right-radius", "4px"),
        style("img", "border-bottom-left-radius", "8px"),
      ],
    });
    expect(saved.body.data).toMatchObject([{ property: "border-radius", value: "4px 8px", count: 4 }]);
    const again = await owner.post(`/api/versions/${versionId}/changes`, {
      changes: [style("img", "border-bottom-left-radius", "0")],
    });
    expect(again.body.data).toMatchObject([
      { id: saved.body.data[0].id, property: "border-radius", value: "4px 8px 4px 0", count: 5 },
    ]);
  });

  routeIt(driver)("hides and resolves changes, editors only", async () => {
    const versionId = await newVersion();
    const [change] = (
      await editor.post(`/api/versions/${versionId}/changes`, { changes: [style("h2", "opacity", "0.5")] })
    ).body.data as InspectChange[];
    const hidden = await editor.patch(`/api/changes/${change!.id}`, { isHidden: true });
    expect(hidden.body.data).toMatchObject({ isHidden: true, isResolved: false, resolvedBy: null });
    const resolved = await owner.patch(`/api/changes/${change!.id}`, { isResolved: true });
    expect(resolved.body.data).toMatchObject({
      isHidden: true,
      isResolved: true,
      resolvedBy: expect.any(String),
    });
    expect(
      (await owner.patch(`/api/changes/${change!.id}`, { isResolved: false })).body.data.resolvedBy,
    ).toBeNull();
    expect((await commenter.patch(`/api/changes/${change!.id}`, { isResolved: true })).status).toBe(403);
    expect((await owner.patch(`/api/changes/${change!.id}`, { isResolved: "yes" })).status).toBe(400);
    expect((await owner.patch("/api/changes/missing", { isResolved: true })).status).toBe(404);

    // A new edit of a resolved or hidden change shows it again, unresolved.
    await owner.patch(`/api/changes/${change!.id}`, { isResolved: true });
    const [edited] = (
      await editor.post(`/api/versions/${versionId}/changes`, { changes: [style("h2", "opacity", "0.7")] })
    ).body.data as InspectChange[];
    expect(edited).toMatchObject({
      id: change!.id,
      value: "0.7",
      isHidden: false,
      isResolved: false,
      count: 2,
    });
  });

  routeIt(driver)("deletes changes with the spec's message, only the version's own", async () => {
    const versionId = await newVersion();
    const otherVersionId = await newVersion();
    const changes = (
      await editor.post(`/api/versions/${versionId}/changes`, {
        changes: [style("a", "color", "red"), style("b", "color", "red"), style("c", "color", "red")],
      })
    ).body.data as InspectChange[];
    const [other] = (
      await editor.post(`/api/versions/${otherVersionId}/changes`, { changes: [style("a", "color", "red")] })
    ).body.data as InspectChange[];
    const path = `/api/versions/${versionId}/changes`;
    expect((await commenter.request("DELETE", path, { ids: [changes[0]!.id] })).status).toBe(403);
    const [a, b, c] = ["a", "b", "c"].map((selector) => changes.find((x) => x.querySelector === selector)!);
    const deleted = await editor.request("DELETE", path, { ids: [a!.id, b!.id, other!.id] });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { deleted: 2 }, message: "Suggestion(s) deleted successfully." });
    expect((await list(versionId)).map((x) => x.id)).toEqual([c!.id]);
    expect(await list(otherVersionId)).toHaveLength(1);
    expect((await editor.request("DELETE", path, { ids: [] })).status).toBe(400);
  });

  routeIt(driver)(
    "downloads the open style changes as a CSS patch, with the text changes as a comment",
    async () => {
      const versionId = await newVersion();
      const saved = (
        await editor.post(`/api/versions/${versionId}/changes`, {
          changes: [
            style("h1", "color", "#e5383b"),
            style("h1", "font-size", "24px", 375),
            style("footer", "opacity", "0.5"),
            text("h1", "Hello", "Hello there"),
          ],
        })
      ).body.data as InspectChange[];
      const footer = saved.find((c) => c.querySelector === "footer")!;
      await editor.patch(`/api/changes/${footer.id}`, { isResolved: true });

      const download = await viewer.get(`/api/versions/${versionId}/changes.css`);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("text/css; charset=utf-8");
      expect(download.headers.get("content-disposition")).toMatch(
        /^attachment; filename="[a-z0-9-]+-v\d+-edits\.css"$/,
      );
      expect(download.body).toBe(
        [
          "h1 {",
          "  color: #e5383b !important;",
          "}",
          "",
          "@media (max-width: 740px) {",
          "  h1 {",
          "    font-size: 24px !important;",
          "  }",
          "}",
          "",
          "/*",
          "Text changes",
          "",
          "1. h1",
          "   Before: Hello",
          "   After:  Hello there",
          "*/",
          "",
        ].join("\n"),
      );
    },
  );

  routeIt(driver)("refuses bad input and changes nothing", async () => {
    const versionId = await newVersion();
    await editor.post(`/api/versions/${versionId}/changes`, { changes: [style("h1", "color", "red")] });
    const before = await list(versionId);
    for (const body of [
      {},
      { changes: [] },
      { changes: [style("h1", "color", "red; background: url(https://evil.example)")] },
      { changes: [style("h1", "color", "red}body{display:none")] },
      { changes: [style("h1", "position", "fixed")] },
      { changes: [style("h1 { x", "color", "red")] },
      { changes: [style("h1", "color", "blue"), style("h1", "color", "</style>")] },
      { changes: [{ ...text("h1", "a", "b"), after: "<script>alert(1)</script>" }] },
      {
        changes: [{ ...style("img", "src", "x"), changeType: "image", value: "https://evil.example/a.png" }],
      },
      { changes: Array.from({ length: 501 }, () => style("h1", "color", "blue")) },
    ]) {
      const response = await editor.post(`/api/versions/${versionId}/changes`, body);
      expect(response.status, JSON.stringify(body).slice(0, 100)).toBe(400);
    }
    expect(await list(versionId)).toEqual(before);
  });

  it("keeps every change when several saves arrive at once", async () => {
    const versionId = await newVersion();
    const clients = [owner, editor];
    const saves = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        clients[i % 2]!.post(`/api/versions/${versionId}/changes`, {
          changes: [style(`#item-${i}`, "color", "red"), style("#shared", "margin-top", `${i}px`)],
        }),
      ),
    );
    expect(saves.map((save) => save.status)).toEqual(Array(30).fill(200));
    const changes = await list(versionId);
    expect(changes).toHaveLength(31);
    expect(changes.find((c) => c.querySelector === "#shared")!.count).toBe(30);
  });

  routeIt(driver)("stores a replacement image as an asset the snapshot can show", async () => {
    const versionId = await newVersion();
    const uploaded = await editor.upload(`/api/versions/${versionId}/changes/images`, {
      name: "hero.png",
      type: "image/png",
      bytes: await png(),
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.data).toMatchObject({ imageDimensions: { width: 32, height: 24 } });
    const { path } = uploaded.body.data;
    expect(path).toMatch(/^\/a\/[0-9a-f]{64}\.png$/);
    const served = await fetch(`${t.contentUrl}${path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");

    const saved = await editor.post(`/api/versions/${versionId}/changes`, {
      changes: [
        {
          changeType: "image",
          anchor: anchor("img.hero"),
          deviceWidth: 1280,
          value: path,
          imageDimensions: uploaded.body.data.imageDimensions,
        },
      ],
    });
    expect(saved.body.data).toMatchObject([{ changeType: "image", property: "src", value: path }]);

    const notImage = await editor.upload(`/api/versions/${versionId}/changes/images`, {
      name: "x.svg",
      type: "image/svg+xml",
      bytes: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
    });
    expect(notImage.status).toBe(400);
    const big = await editor.upload(`/api/versions/${versionId}/changes/images`, {
      name: "big.png",
      type: "image/png",
      bytes: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    expect(big.status).toBe(413);
    expect(
      (
        await commenter.upload(`/api/versions/${versionId}/changes/images`, {
          name: "a.png",
          type: "image/png",
          bytes: await png(),
        })
      ).status,
    ).toBe(403);
  });

  routeIt(driver)("shows the visible changes through the public link only while it shows edits", async () => {
    const versionId = await newVersion();
    const saved = (
      await editor.post(`/api/versions/${versionId}/changes`, {
        changes: [style("h1", "color", "red"), style("h2", "color", "red")],
      })
    ).body.data as InspectChange[];
    const h2 = saved.find((change) => change.querySelector === "h2")!;
    await editor.patch(`/api/changes/${h2.id}`, { isHidden: true });
    const guest = new ApiClient(t.url);
    const path = `/api/share/${projectId}/versions/${versionId}/changes`;
    expect((await guest.get(path)).status).toBe(404);
    await owner.patch(`/api/projects/${projectId}/sharing`, { public: true });
    expect((await guest.get(path)).status).toBe(403);
    await owner.patch(`/api/projects/${projectId}/sharing`, { showEdits: true });
    const shown = await guest.get(path);
    expect(shown.status).toBe(200);
    expect(shown.body.data.map((c: InspectChange) => c.querySelector)).toEqual(["h1"]);
    await owner.patch(`/api/projects/${projectId}/sharing`, { public: false, showEdits: false });
    expect((await guest.get(path)).status).toBe(404);
  });
});

describe("inspect changes in realtime", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("tells another reviewer's socket when the suggestions of a version change", async () => {
    const viewerEmail = email("live-viewer");
    const [owner, viewer] = await Promise.all([
      signUpVerified(t.url, t.inbox!, email("live-owner")),
      signUpVerified(t.url, t.inbox!, viewerEmail),
    ]);
    const projectId = (await owner.post("/api/projects", { title: "Live edits" })).body.data.id;
    await owner.post(`/api/projects/${projectId}/members`, { email: viewerEmail, access: "view" });
    const versionId = (
      await owner.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/live" })
    ).body.data.versionId;

    const received: RealtimeServerMessage[] = [];
    const socket = new WebSocket(`${t.url.replace("http", "ws")}/api/realtime`, {
      headers: { origin: t.url, cookie: viewer.cookieHeader() },
    });
    socket.on("message", (data) => received.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    const next = async (type: string) => {
      // The ledger's readers fan the event out: seconds late on a loaded machine.
      for (let waited = 0; waited < 20_000; waited += 50) {
        const at = received.findIndex((m) => (m.type === "event" ? m.event.type : m.type) === type);
        if (at !== -1) return received.splice(at, 1)[0]!;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no ${type}; got ${JSON.stringify(received)}`);
    };
    socket.send(JSON.stringify({ type: "join", projectId }));
    await next("joined");

    const [change] = (
      await owner.post(`/api/versions/${versionId}/changes`, { changes: [style("h1", "color", "red")] })
    ).body.data as InspectChange[];
    expect(await next("inspect.changed")).toEqual({
      type: "event",
      room: `project:${projectId}`,
      event: { type: "inspect.changed", projectId, versionId },
    });
    await owner.patch(`/api/changes/${change!.id}`, { isResolved: true });
    await next("inspect.changed");
    await owner.request("DELETE", `/api/versions/${versionId}/changes`, { ids: [change!.id] });
    await next("inspect.changed");
    socket.close();
  }, 90_000);
});
