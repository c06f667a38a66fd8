/**
 * npm run bench:api — what an authenticated request costs.
 *
 * The app runs as a real server process on PostgreSQL and on PGlite. A verified user owns one project
 * with one page whose version holds 200 comments. At 20 keep-alive connections we measure req/s and
 * p50/p95 of: GET /api/me, the project list, the project, the version's comments, and one write (a new
 * comment). Every request carries the Accept-Encoding a browser sends (the comment list is also read by a
 * client asking for no compression), and the project list read with an API token. Baseline in the same run: a
 * bare Fastify route in a process of its own.
 * Goal (issue #10): authenticated reads ≥ 0.1× the bare route on PostgreSQL, ≥ 0.05× on PGlite; with an API
 * token (issue #28) ≥ 0.15× on PostgreSQL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../apps/server/src/testing/test-app.ts";
import { repoRoot, writeSection } from "../lib/report.ts";
import { scratchDatabase, signUp, startServer } from "../lib/server.ts";
import { type LoadResult, load } from "./load.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const COMMENTS = 200;

async function startBare(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "bench/api/bare.ts"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  return { url: `http://127.0.0.1:${port}`, process: child };
}

interface Row {
  name: string;
  result: LoadResult;
}

async function measureDriver(env: Record<string, string>): Promise<{ bare: LoadResult; rows: Row[] }> {
  const server = await startServer(env);
  const bareServer = await startBare();
  try {
    const client = await signUp(server);
    const projectId = (await client.post("/api/projects", { title: "Bench" })).body.data.id as string;
    const versionId = (
      await client.post(`/api/projects/${projectId}/pages`, { url: "https://example.com/b" })
    ).body.data.versionId as string;
    for (let i = 0; i < COMMENTS; i++)
      await client.post(`/api/versions/${versionId}/comments`, {
        dotPosition: { x: 0.5, y: 0.5 },
        deviceWidth: 1280,
        comment: `comment ${i}`,
      });
    // What Chromium sends with every request (the bench's client, like a browser's, never decodes for it).
    const headers = {
      cookie: client.cookieHeader(),
      origin: server.url,
      "accept-encoding": "gzip, deflate, br, zstd",
    };
    const options = { seconds: SECONDS };
    const bare = await load(bareServer.url, { path: "/bare" }, options);
    const commentsPath = `/api/versions/${versionId}/comments`;
    const reads: [string, string][] = [
      ["GET /api/me", "/api/me"],
      ["GET /api/projects (1 project)", "/api/projects"],
      ["GET /api/projects/{id}", `/api/projects/${projectId}`],
      [`GET /api/versions/{id}/comments (${COMMENTS} comments)`, commentsPath],
    ];
    const sizeOf = async (encoding: string) =>
      `${Math.round(
        Number(
          (
            await client.request("GET", commentsPath, undefined, { ...headers, "accept-encoding": encoding })
          ).headers.get("content-length"),
        ) / 1000,
      )} kB`;
    const [compressedSize, plainSize] = [await sizeOf(headers["accept-encoding"]), await sizeOf("identity")];
    console.log(`The list of ${COMMENTS} comments: ${compressedSize} compressed, ${plainSize} not`);
    const rows: Row[] = [];
    for (const [name, url] of reads)
      rows.push({ name, result: await load(server.url, { path: url, headers }, options) });
    // A script with an API token (issue #28): resolved by its hash on every request, no session cache.
    const secret = (await client.post("/api/me/tokens", { name: "Bench", scope: "read" })).body.data
      .secret as string;
    const tokenHeaders = { authorization: `Bearer ${secret}`, "accept-encoding": headers["accept-encoding"] };
    rows.push({
      name: "GET /api/projects (1 project), API token",
      result: await load(server.url, { path: "/api/projects", headers: tokenHeaders }, options),
    });
    // A client that asks for no compression (curl, a script) gets all 164 kB.
    rows.push({
      name: `GET /api/versions/{id}/comments (${COMMENTS} comments), not compressed`,
      result: await load(
        server.url,
        { path: commentsPath, headers: { ...headers, "accept-encoding": "identity" } },
        options,
      ),
    });
    // A tab refetching the list it already holds: its browser revalidates with the ETag it kept.
    const etag = (await client.request("GET", commentsPath, undefined, headers)).headers.get("etag");
    if (etag)
      rows.push({
        name: `GET /api/versions/{id}/comments (${COMMENTS} comments), revalidated by the browser (304)`,
        result: await load(
          server.url,
          { path: commentsPath, headers: { ...headers, "if-none-match": etag }, expectStatus: 304 },
          options,
        ),
      });
    let n = 0;
    rows.push({
      name: "POST /api/versions/{id}/comments (write)",
      result: await load(
        server.url,
        {
          method: "POST",
          path: `/api/versions/${versionId}/comments`,
          headers,
          body: () =>
            JSON.stringify({ dotPosition: { x: 0.2, y: 0.2 }, deviceWidth: 1280, comment: `load ${n++}` }),
        },
        options,
      ),
    });
    return { bare, rows };
  } finally {
    server.process.kill();
    bareServer.process.kill();
    await sleep(300);
  }
}

const fmt = (value: number) => value.toFixed(value < 10 ? 1 : 0);

function table(label: string, bare: LoadResult, rows: Row[]): string {
  const lines = [
    `| ${label}: bare Fastify route | ${fmt(bare.requestsPerSecond)} | ${fmt(bare.p50)} | ${fmt(bare.p95)} | 1× |`,
    ...rows.map(
      ({ name, result }) =>
        `| ${name} | ${fmt(result.requestsPerSecond)} | ${fmt(result.p50)} | ${fmt(result.p95)} | ${(result.requestsPerSecond / bare.requestsPerSecond).toFixed(3)}×${result.errors ? ` (${result.errors} non-2xx)` : ""} |`,
    ),
  ];
  return lines.join("\n");
}

async function main() {
  const database = await scratchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-bench-"));
  const pgliteDir = await mkdtemp(path.join(os.tmpdir(), "redline-bench-"));
  const sections: string[] = [];
  try {
    // BENCH_ONLY=postgres|pglite measures one database (a partial run never rewrites the document).
    const only = process.env.BENCH_ONLY;
    if (only !== "pglite") {
      const onPostgres = await measureDriver({ DATABASE_URL: database.url, DATA_DIR: dataDir });
      sections.push(table("PostgreSQL", onPostgres.bare, onPostgres.rows));
      console.log(sections.at(-1));
    }
    if (only !== "postgres") {
      const onPglite = await measureDriver({ DATA_DIR: pgliteDir });
      sections.push(table("PGlite", onPglite.bare, onPglite.rows));
      console.log(sections.at(-1));
    }
  } finally {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(pgliteDir, { recursive: true, force: true });
  }
  if (process.env.BENCH_NO_WRITE || process.env.BENCH_ONLY) return;
  await writeSection(
    "API",
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:api\` on this project's 2-core machine (load average
${os.loadavg()[0]!.toFixed(1)} when it finished); the load generator, the app and PostgreSQL share the 2 cores.
20 keep-alive connections, each sending its next request when the last answer arrived, for ${SECONDS} s after a 1 s
warm-up. A verified user's session cookie (or, on the row that says so, an API token); one project, one page,
${COMMENTS} comments on its version. Baseline: a bare Fastify route in its own process, measured in the same run.
Goal: authenticated reads ≥ 0.1× the bare route on PostgreSQL, ≥ 0.05× on PGlite; with an API token ≥ 0.15× on
PostgreSQL.

| Request | req/s | p50 ms | p95 ms | ÷ bare |
|---|---|---|---|---|
${sections.join("\n")}`,
  );
}

await main();
