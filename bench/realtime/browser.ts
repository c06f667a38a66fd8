/**
 * The browser half of `npm run bench:realtime`: a reviewer posts comments; in a second browser (another
 * Chromium context, another member) we count the HTTP requests that tab makes for each new comment and
 * time the POST until the pin is drawn. The same measure runs, in the same run, on a checkout of the commit
 * before comment events carried their comment (067c826: every receiving tab refetched the list), built and
 * served from its own directory.
 *
 * The page is an uploaded image (no capture needed), whose pins the app draws itself (`.comment-pin`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { percentile, repoRoot } from "../lib/report.ts";
import { addImagePage, cookiesFor } from "../lib/review.ts";
import { scratchDatabase, signUp, startServer } from "../lib/server.ts";

export const BASELINE_COMMIT = "067c826";
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 20);

export interface BrowserFigures {
  requestsPerComment: number;
  /** The paths the receiving tab asked for, with how often (all comments together). */
  requested: Record<string, number>;
  p50: number;
  p95: number;
}

/**
 * A checkout of `commit` that runs without its own `npm install`: its node_modules links to this
 * checkout's packages, except the @redline workspaces, which must be the checkout's own (npm's workspace
 * links are relative, so linking the whole folder would load today's code).
 */
export function prepareCheckout(commit: string): { root: string; remove(): void } {
  const root = path.join(os.tmpdir(), `redline-baseline-${randomBytes(3).toString("hex")}`);
  execFileSync("git", ["worktree", "add", "--detach", root, commit], { cwd: repoRoot, stdio: "ignore" });
  const link = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) {
      if (entry === "@redline") continue;
      symlinkSync(path.join(from, entry), path.join(to, entry));
    }
  };
  link(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
  for (const dir of ["apps", "packages"])
    for (const name of readdirSync(path.join(root, dir))) {
      const own = path.join(repoRoot, dir, name, "node_modules");
      if (existsSync(own)) link(own, path.join(root, dir, name, "node_modules"));
    }
  mkdirSync(path.join(root, "node_modules/@redline"), { recursive: true });
  for (const dir of ["apps", "packages"])
    for (const name of readdirSync(path.join(root, dir))) {
      const manifest = path.join(root, dir, name, "package.json");
      if (!existsSync(manifest)) continue;
      const packageName = JSON.parse(readFileSync(manifest, "utf8")).name as string;
      symlinkSync(path.join(root, dir, name), path.join(root, "node_modules", packageName));
    }
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`building ${commit} failed`);
  return {
    root,
    remove() {
      execFileSync("git", ["worktree", "remove", "--force", root], { cwd: repoRoot, stdio: "ignore" });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Measures one checkout (`root`; this one when absent) on a fresh database. */
export async function measureBrowser(root?: string): Promise<BrowserFigures> {
  const database = await scratchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-bench-"));
  const server = await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir }, root);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const [author, reviewer] = [await signUp(server), await signUp(server)];
    const reviewerEmail = (await reviewer.get("/api/me")).body.data.email as string;
    const projectId = (await author.post("/api/projects", { title: "Bench" })).body.data.id as string;
    const { pageId, versionId } = await addImagePage(author, projectId);
    await author.post(`/api/projects/${projectId}/members`, { email: reviewerEmail, access: "comment" });

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies(cookiesFor(reviewer, server.url));
    const page = await context.newPage();
    let requests = 0;
    let counting = false;
    const requested: Record<string, number> = {};
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (!pathname.startsWith("/api/") || request.resourceType() === "websocket") return;
      requests++;
      if (!counting) return;
      const shape = pathname.replace(/[A-Za-z0-9_-]{20,}/g, "{id}");
      requested[shape] = (requested[shape] ?? 0) + 1;
    });
    const joined = page.waitForEvent("websocket").then(
      (socket) =>
        new Promise<void>((resolve) =>
          socket.on("framereceived", (frame) => {
            if (String(frame.payload).includes('"joined"')) resolve();
          }),
        ),
    );
    await page.goto(`${server.url}/project/${projectId}/${pageId}/${versionId}/comment`);
    await page.locator(".image-view img").waitFor();
    await joined;
    await page.waitForTimeout(1000);

    const pins = page.locator(".comment-pin:not(.comment-pin--pending)");
    counting = true;
    const latencies: number[] = [];
    const perComment: number[] = [];
    for (let i = 0; i < COMMENTS; i++) {
      const before = await pins.count();
      requests = 0;
      const started = performance.now();
      const posted = await author.post(`/api/versions/${versionId}/comments`, {
        comment: `Comment ${i}`,
        dotPosition: { x: 0.1 + (i % 8) * 0.1, y: 0.2 + Math.floor(i / 8) * 0.2 },
        deviceWidth: 1280,
      });
      if (posted.status !== 201) throw new Error(`comment refused: ${posted.status}`);
      await page.waitForFunction(
        (count) => document.querySelectorAll(".comment-pin:not(.comment-pin--pending)").length > count,
        before,
        { polling: "raf" },
      );
      latencies.push(performance.now() - started);
      await page.waitForTimeout(400); // what the tab asks for after the pin counts too
      perComment.push(requests);
    }
    await context.close();
    return {
      requestsPerComment: perComment.reduce((sum, n) => sum + n, 0) / perComment.length,
      requested,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
    };
  } finally {
    await browser.close();
    server.process.kill();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
