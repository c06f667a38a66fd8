/**
 * What the extension's journeys share, in Chromium (extension.e2e.test.ts) and in Firefox
 * (extension-firefox.e2e.test.ts): the fixture web app behind a cookie sign-in, a person with a web-app
 * project and the session cookies that sign a browser in as them, and the pages a project holds.
 */
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { expect } from "vitest";
import { pages, versions } from "../apps/server/src/db/schema/index.ts";
import { ApiClient, signUpVerified } from "../apps/server/src/testing/http-client.ts";
import { type E2E, uniqueEmail } from "./harness.ts";
import { newProject, PASSWORD, serveSite } from "./helpers.ts";

/** The fixture web app's signed-in heading: what only a browser signed in to it sees. */
export const SIGNED_IN_HEADING = "Welcome back, Ada";

/**
 * A web app behind a cookie sign-in: /login signs the browser in, /app shows the signed-in dashboard (its
 * sign-in page to anyone else, the server's own captures included); /board is a page with a red block.
 */
export function startWebApp() {
  return serveSite((request, response) => {
    const signedIn = /(?:^|;\s*)fixture_session=ada(?:;|$)/.test(request.headers.cookie ?? "");
    if (request.url === "/login") {
      response
        .writeHead(302, { "set-cookie": "fixture_session=ada; Path=/; HttpOnly", location: "/app" })
        .end();
    } else if (request.url?.startsWith("/app")) {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          signedIn
            ? `<!doctype html><html><head><title>Dashboard</title><style>h1{color:rgb(20,90,200)}</style></head><body><h1>${SIGNED_IN_HEADING}</h1><p>Your private dashboard: 3 open invoices.</p><form><input name="q" value=""></form></body></html>`
            : `<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1></body></html>`,
        );
    } else if (request.url === "/board") {
      // A page that tries what a hostile page can against the extension (the region test drives it), and
      // a red block the region test drags over.
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><html><head><title>Board</title><style>body{margin:0;background:#fff}#block{position:absolute;left:100px;top:100px;width:200px;height:150px;background:rgb(220,20,20)}</style></head><body><h1>Board</h1><div id="block"></div></body></html>`,
        );
    } else response.writeHead(404).end();
  });
}

/** A session of `email` in Redline, past onboarding: its cookies sign a browser in as them. */
export async function sessionCookies(e2e: E2E, email: string): Promise<{ name: string; value: string }[]> {
  const session = new ApiClient(e2e.baseUrl);
  expect((await session.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
  await session.patch("/api/me", {
    onboarding: { profileSetup: true, featureTour: true, introduceProductSplitting: true, demoModal: true },
  });
  return session.cookieList();
}

/** A new person with a web-app project titled `title`. */
export async function personWithWebApp(e2e: E2E, title: string) {
  const email = uniqueEmail("extension");
  const api = await signUpVerified(e2e.baseUrl, e2e.app.inbox!, email, PASSWORD, "Ada Lovelace");
  const projectId = await newProject(api, title, "webapp");
  return { email, api, projectId };
}

export const pagesOf = (e2e: E2E, projectId: string) =>
  e2e.app.ctx.database.db.select().from(pages).where(eq(pages.projectId, projectId));

/** Where Redline opens a page the extension added: its review view. */
export const reviewPathOf = (projectId: string) => new RegExp(`/project/${projectId}/[^/]+/[^/]+/comment`);

/** What the app stored at `key` (a snapshot's file, a screenshot). */
export async function storedBytes(e2e: E2E, key: string): Promise<Buffer> {
  const stored = await e2e.app.ctx.storage.get(key);
  expect(stored).toBeTruthy();
  const chunks: Buffer[] = [];
  for await (const chunk of stored!.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The project holds one page, the region the person dragged over /board's red block (from its corner at
 * 100,100 to 300,250): an image page of those 200×150 CSS pixels (the screen's device pixel ratio is 1),
 * the block's red throughout.
 */
export async function expectBlockRegionAdded(e2e: E2E, projectId: string) {
  const [page, ...more] = await pagesOf(e2e, projectId);
  expect(more).toHaveLength(0);
  expect(page).toMatchObject({ url: "image", title: "Board — region" });
  const [version] = await e2e.app.ctx.database.db
    .select()
    .from(versions)
    .where(eq(versions.pageId, page!.id));
  expect(version).toMatchObject({ kind: "image", status: "ready" });
  const image = sharp(await storedBytes(e2e, version!.fileKey!));
  expect(await image.metadata()).toMatchObject({ width: 200, height: 150 });
  const { channels } = await image.stats();
  expect(channels.slice(0, 3).map((channel) => Math.round(channel.mean))).toEqual([220, 20, 20]);
}
