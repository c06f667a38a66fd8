import { DEFAULT_TEAM_THEME, TEAM_BRANDING_MESSAGES } from "@redline/shared";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { teams, users } from "../../db/schema/index.ts";
import type { ApiClient } from "../../testing/http-client.ts";
import { expectRefused, type Person, signUpPerson } from "../../testing/people.ts";
import { openSocket } from "../../testing/realtime-socket.ts";
import { startTestApp, type TestApp } from "../../testing/test-app.ts";
import { routeDrivers } from "../../testing/test-db.ts";
import { collectFiles } from "../files/collector.ts";

const picture = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 4, background } });
const png = (width = 600, height = 300, background = "#2255aa") =>
  picture(width, height, background).png().toBuffer();
const jpeg = (width = 64, height = 32) => picture(width, height, "#ffaa00").jpeg().toBuffer();
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
);

describe.each(routeDrivers())("team branding (%s)", (driver) => {
  let t: TestApp;
  let owner: Person;
  let manager: Person;
  let member: Person;
  let collaborator: Person;
  let stranger: Person;
  let teamId: string;

  const person = (name: string) => signUpPerson(t, name, name);
  const path = (suffix = "") => `/api/teams/${teamId}/branding${suffix}`;
  const teamRow = async (id = teamId) =>
    (await t.ctx.database.db.select().from(teams).where(eq(teams.id, id)))[0]!;
  /** Asserts a refused request: its status and code, and not a row or a stored file changed. */
  const refused = (call: () => Promise<{ status: number; body: any }>, status: number, code?: string) =>
    expectRefused(t, call, status, code);
  const served = async (client: ApiClient, url: string) => {
    // A file is streamed: its connection closes after it, so the app never closes while one is kept alive.
    const response = await fetch(`${t.url}${url}`, {
      headers: { cookie: client.cookieHeader(), connection: "close" },
    });
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    // Plans on, as in production: the owner holds the Team plan, which includes branding (SPEC §6).
    t = await startTestApp({ driver, config: { plansEnabled: true } });
    owner = await person("owner");
    await t.ctx.database.db.update(users).set({ privilege: "team" }).where(eq(users.id, owner.uid));
    [manager, member, collaborator, stranger] = [
      await person("manager"),
      await person("member"),
      await person("collaborator"),
      await person("stranger"),
    ];
    teamId = (await owner.client.post("/api/teams", { product: "web", name: "Brand Co" })).body.data.id;
    for (const [who, access] of [
      [manager, "manager"],
      [member, "member"],
      [collaborator, "collaborator"],
    ] as const)
      expect(
        (await owner.client.post(`/api/teams/${teamId}/members`, { email: who.address, access })).status,
      ).toBe(201);
  });
  afterAll(() => t.close());

  it("lets the owner turn branding on and set colours; members see the change live", async () => {
    const socket = await openSocket(t, member.client);
    await socket.next((m) => m.type === "ready");
    const response = await owner.client.patch(path(), { customBranding: true, primaryColor: "#2255AA" });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.message).toBe(TEAM_BRANDING_MESSAGES.updated);
    expect(response.body.data).toMatchObject({
      customBranding: true,
      theme: { ...DEFAULT_TEAM_THEME, primaryColor: "#2255aa" },
      abilities: { brand: true },
    });
    await socket.next(
      (m) => m.type === "event" && m.event.type === "teams.changed" && m.event.teamId === teamId,
    );
    socket.socket.close();
    // What every team user reads, the member included.
    const read = (await member.client.get(`/api/teams/${teamId}`)).body.data;
    expect(read).toMatchObject({
      customBranding: true,
      theme: { primaryColor: "#2255aa" },
      abilities: { brand: false },
    });
  });

  it("lets a manager change colours, and one change never undoes another", async () => {
    const response = await manager.client.patch(path(), {
      secondaryColor: "#eeeeff",
      textHighlightColor: "#101010",
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.theme).toEqual({
      ...DEFAULT_TEAM_THEME,
      primaryColor: "#2255aa",
      secondaryColor: "#eeeeff",
      textHighlightColor: "#101010",
    });
    expect(response.body.data.role).toBe("manager");
  });

  it("stores an uploaded logo and icon as PNGs served by /files/, recognised by their bytes", async () => {
    const logo = await owner.client.upload(path("/logo"), {
      name: "logo.png",
      type: "image/png",
      bytes: await png(),
    });
    expect(logo.status, JSON.stringify(logo.body)).toBe(200);
    expect(logo.body.message).toBe(TEAM_BRANDING_MESSAGES.logoUploaded);
    const logoURL = logo.body.data.theme.logoURL as string;
    expect(logoURL).toMatch(new RegExp(`^/files/branding/${teamId}/[0-9a-f]{64}\\.png$`));
    const logoFile = await served(member.client, logoURL);
    expect(logoFile).toMatchObject({ status: 200, type: "image/png" });
    // Fitted inside 800×200, proportions kept.
    expect(await sharp(logoFile.bytes).metadata()).toMatchObject({ format: "png", width: 400, height: 200 });

    // A JPEG that calls itself text: the bytes decide. The manager may upload too.
    const icon = await manager.client.upload(path("/icon"), {
      name: "icon.txt",
      type: "text/plain",
      bytes: await jpeg(),
    });
    expect(icon.status, JSON.stringify(icon.body)).toBe(200);
    expect(icon.body.message).toBe(TEAM_BRANDING_MESSAGES.iconUploaded);
    const iconFile = await served(member.client, icon.body.data.theme.iconURL);
    expect(await sharp(iconFile.bytes).metadata()).toMatchObject({ format: "png", width: 256, height: 256 });
    // The logo stays.
    expect(icon.body.data.theme.logoURL).toBe(logoURL);
    expect((await teamRow()).theme).toMatchObject({ logoURL, iconURL: icon.body.data.theme.iconURL });
  });

  it("refuses what is not a raster image, or is over 5 MB, with a clear message and nothing changed", async () => {
    const notImage = await refused(
      () =>
        owner.client.upload(path("/logo"), {
          name: "logo.png",
          type: "image/png",
          bytes: Buffer.from("not an image"),
        }),
      400,
      "invalid-image",
    );
    expect(notImage.body.message).toBe(TEAM_BRANDING_MESSAGES.notImage);
    await refused(
      () => owner.client.upload(path("/icon"), { name: "icon.svg", type: "image/svg+xml", bytes: SVG }),
      400,
      "invalid-image",
    );
    // Answered before the body is read: the connection closes after, so no half-read request holds it.
    const huge = new FormData();
    huge.append("file", new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: "image/png" }), "huge.png");
    const tooLarge = await refused(
      () => owner.client.request("POST", path("/logo"), huge, { connection: "close" }),
      413,
      "max-file-size",
    );
    expect(tooLarge.body.message).toBe("Max file size is 5 MB.");
    await refused(() => owner.client.patch(path(), { primaryColor: "blue" }), 400);
    await refused(() => owner.client.patch(path(), { logoURL: "https://evil.example/x.png" }), 400);
    await refused(() => owner.client.patch(path(), {}), 400);
  });

  it("refuses members and collaborators (403) and people outside the team (404)", async () => {
    for (const who of [member, collaborator]) {
      await refused(() => who.client.patch(path(), { primaryColor: "#000000" }), 403);
      await refused(
        () => who.client.upload(path("/logo"), { name: "a.png", type: "image/png", bytes: Buffer.alloc(0) }),
        403,
      );
      await refused(() => who.client.delete(path("/icon")), 403);
    }
    await refused(() => stranger.client.patch(path(), { customBranding: false }), 404, "team-not-accessible");
    await refused(
      () =>
        stranger.client.upload(path("/icon"), { name: "a.png", type: "image/png", bytes: Buffer.alloc(0) }),
      404,
    );
    await refused(() => stranger.client.delete(path("/logo")), 404);
  });

  it("asks for an upgrade (402) when the team owner's plan lacks branding; turning it off is always allowed", async () => {
    const freeOwner = await person("free-owner");
    const freeTeam = (await freeOwner.client.post("/api/teams", { product: "web" })).body.data.id as string;
    await t.ctx.database.db.update(teams).set({ customBranding: true }).where(eq(teams.id, freeTeam));
    const base = `/api/teams/${freeTeam}/branding`;
    const refusal = await refused(
      () => freeOwner.client.patch(base, { primaryColor: "#123456" }),
      402,
      "branding",
    );
    expect(refusal.body).toMatchObject({
      message: TEAM_BRANDING_MESSAGES.planRequired,
      limit: { kind: "feature", product: "web", limit: 0 },
    });
    const logo = await png();
    await refused(
      () => freeOwner.client.upload(`${base}/logo`, { name: "a.png", type: "image/png", bytes: logo }),
      402,
      "branding",
    );
    const off = await freeOwner.client.patch(base, { customBranding: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data).toMatchObject({ customBranding: false, theme: null });
    // The team owner's plan decides, not the acting manager's: a Team-plan manager of the free team is refused too.
    expect(
      (
        await freeOwner.client.post(`/api/teams/${freeTeam}/members`, {
          email: owner.address,
          access: "manager",
        })
      ).status,
    ).toBe(201);
    await refused(() => owner.client.patch(base, { customBranding: true }), 402, "branding");
  });

  it("refuses changes to a disabled team (403)", async () => {
    await t.ctx.database.db.update(teams).set({ isDisabled: true }).where(eq(teams.id, teamId));
    try {
      await refused(() => owner.client.patch(path(), { primaryColor: "#000000" }), 403, "team-disabled");
    } finally {
      await t.ctx.database.db.update(teams).set({ isDisabled: false }).where(eq(teams.id, teamId));
    }
  });

  it("removes the logo and the icon, each on its own; removing again changes nothing", async () => {
    const before = (await teamRow()).theme!;
    const removed = await manager.client.delete(path("/logo"));
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.message).toBe(TEAM_BRANDING_MESSAGES.logoRemoved);
    expect(removed.body.data.theme).toEqual({ ...before, logoURL: null });
    const again = await owner.client.delete(path("/logo"));
    expect(again.status).toBe(200);
    expect((await teamRow()).theme).toEqual({ ...before, logoURL: null });
  });

  it("keeps the pictures a theme uses from the file collector, and lets a replaced one go", async () => {
    const first = (
      await owner.client.upload(path("/logo"), {
        name: "a.png",
        type: "image/png",
        bytes: await png(300, 100, "#ff0000"),
      })
    ).body.data.theme.logoURL as string;
    const second = (
      await owner.client.upload(path("/logo"), {
        name: "b.png",
        type: "image/png",
        bytes: await png(300, 100, "#00ff00"),
      })
    ).body.data.theme.logoURL as string;
    expect(second).not.toBe(first);
    const iconURL = (await teamRow()).theme!.iconURL!;
    const { removed } = await collectFiles(t.ctx, 0);
    expect(removed).toContain(first.slice("/files/".length));
    expect(removed).not.toContain(second.slice("/files/".length));
    expect(removed).not.toContain(iconURL.slice("/files/".length));
    expect((await served(owner.client, second)).status).toBe(200);
  });
});
