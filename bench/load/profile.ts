/**
 * One process, one project with MEMBERS members, COMMENTS comments posted one a second: the server's CPU per
 * comment, and with PROFILE=1 a V8 CPU profile of the server (bench/load/cpu-profile.mjs) in PROFILE_DIR for a look at where it goes.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { addImagePage } from "../lib/review.ts";
import { scratchDatabase, signUp, startServer } from "../lib/server.ts";

const MEMBERS = Number(process.env.MEMBERS ?? 200);
const COMMENTS = Number(process.env.COMMENTS ?? 30);
function cpu(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}
const database = await scratchDatabase();
const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-prof-"));
const server = await startServer({
  DATABASE_URL: database.url,
  DATA_DIR: dataDir,
  AUTH_SECRET: randomBytes(32).toString("hex"),
  ...(process.env.PROFILE
    ? { NODE_OPTIONS: `--import ${new URL("./cpu-profile.mjs", import.meta.url).pathname}` }
    : {}),
});
try {
  const author = await signUp(server);
  const projectId = (await author.post("/api/projects", { title: "Load" })).body.data.id as string;
  const { versionId } = await addImagePage(author, projectId);
  for (let i = 0; i < MEMBERS; i++) {
    const r = await signUp(server);
    const email = (await r.get("/api/me")).body.data.email as string;
    await author.post(`/api/projects/${projectId}/members`, { email, access: "comment" });
  }
  await sleep(3000);
  const stats = new pg.Client({ connectionString: database.url });
  await stats.connect();
  const snapshot = async () => {
    await sleep(1500);
    const tables = await stats.query(
      "select relname, n_tup_ins, n_tup_upd, n_tup_del, seq_scan, idx_scan from pg_stat_user_tables",
    );
    const db = await stats.query(
      "select xact_commit, tup_returned, tup_fetched from pg_stat_database where datname = current_database()",
    );
    return { tables: tables.rows, db: db.rows[0] };
  };
  const first = await snapshot();
  const before = cpu(server.process.pid!);
  for (let i = 0; i < COMMENTS; i++) {
    const started = performance.now();
    const posted = await author.post(`/api/versions/${versionId}/comments`, {
      comment: `Comment ${i}`,
      target: { kind: "image-point", point: { x: 0.1 + i / 1000, y: 0.2 } },
      deviceWidth: 1280,
    });
    if (posted.status >= 300) console.log(posted.status, JSON.stringify(posted.body));
    await sleep(Math.max(0, 1000 - (performance.now() - started)));
  }
  await sleep(2000);
  const last = await snapshot();
  await stats.end();
  console.log(
    "db per comment:",
    JSON.stringify(
      Object.fromEntries(
        Object.entries(last.db).map(([k, v]) => [k, (Number(v) - Number(first.db[k])) / COMMENTS]),
      ),
    ),
  );
  for (const row of last.tables) {
    const was = first.tables.find((t) => t.relname === row.relname) ?? {};
    const d = ["n_tup_ins", "n_tup_upd", "n_tup_del", "seq_scan", "idx_scan"].map(
      (k) => (Number(row[k] ?? 0) - Number(was[k] ?? 0)) / COMMENTS,
    );
    if (d.some((x) => x > 0))
      console.log(row.relname.padEnd(32), d.map((x) => x.toFixed(1).padStart(8)).join(""));
  }
  console.log(
    `members ${MEMBERS}: CPU per comment ${((cpu(server.process.pid!) - before) / COMMENTS).toFixed(1)} ms`,
  );
} finally {
  server.process.kill("SIGTERM");
  await new Promise((r) => server.process.once("exit", r));
  await database.drop();
}
