/**
 * One crash round: the real server as a child process takes concurrent writes (projects, screenshot
 * uploads that store files, comments), is killed with -9 mid-stream, and is started again on the same
 * data. Every write it acknowledged (2xx) must still be there, and no stored file may be torn: empty,
 * or (content-addressed) with bytes that do not hash to its name. Used by crash.test.ts and
 * bench/reliability.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { openDatabase } from "../db/index.ts";
import { storedKeys } from "../modules/files/stored-files.ts";
import { ApiClient } from "./http-client.ts";
import { type ServerProcess, startServerProcess } from "./server-process.ts";
import { createTestDatabase, type TestDriver } from "./test-db.ts";

export interface CrashRoundOptions {
  driver: TestDriver;
  /** How long writes run before the kill. */
  writeMs?: number;
  /** Writers in parallel. */
  concurrency?: number;
}

export interface CrashRoundResult {
  driver: TestDriver;
  /** Writes the server acknowledged before it was killed. */
  acknowledged: number;
  /** Acknowledged writes missing after the restart ("project <id>", …). */
  lost: string[];
  /** Stored files that are empty or whose bytes do not hash to their content-addressed name. */
  tornFiles: string[];
  /** From the kill to the restarted server answering /api/health. */
  restartMs: number;
  /**
   * Stored files no row references, left after the restarted server's file collector had its first pass
   * (run with no grace period here): what the crash left behind and nothing cleaned.
   */
  orphanFiles: string[];
}

interface Acknowledged {
  projects: Set<string>;
  /** versionId → projectId, for uploads. */
  versions: Map<string, string>;
  /** commentId → versionId. */
  comments: Map<string, string>;
}

export const PASSWORD = "correct horse battery";

export async function crashRound(options: CrashRoundOptions): Promise<CrashRoundResult> {
  const { driver, writeMs = 3000, concurrency = 6 } = options;
  const database = await createTestDatabase(driver);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "redline-crash-"));
  const serverOptions = {
    dataDir,
    databaseUrl: database.databaseUrl,
    env: { RATE_LIMIT_ENABLED: "false" },
  };
  let server: ServerProcess | null = null;
  try {
    server = await startServerProcess(serverOptions);
    const email = `crash-${Date.now()}@example.com`;
    const client = await signUpThroughOutbox(server.url, email);

    const acked: Acknowledged = { projects: new Set(), versions: new Map(), comments: new Map() };
    let stopping = false;
    let imageNumber = 0;
    const writer = async (index: number) => {
      while (!stopping) {
        try {
          const project = await client.post("/api/projects", { title: `crash ${index}` });
          if (project.status !== 201) continue;
          const projectId = project.body.data.id as string;
          acked.projects.add(projectId);
          for (let i = 0; i < 3 && !stopping; i++) {
            const bytes = await uniquePng(imageNumber++);
            const upload = await client.upload(`/api/projects/${projectId}/uploads`, {
              name: `shot-${i}.png`,
              type: "image/png",
              bytes,
            });
            if (upload.status !== 201) break;
            const versionId = upload.body.data.versionId as string;
            acked.versions.set(versionId, projectId);
            const comment = await client.post(`/api/versions/${versionId}/comments`, {
              dotPosition: { x: 0.5, y: 0.5 },
              deviceWidth: 1280,
              comment: `comment on ${versionId}`,
            });
            if (comment.status === 201 || comment.status === 200)
              acked.comments.set(comment.body.data.id as string, versionId);
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: concurrency }, (_, index) => writer(index));
    await new Promise((resolve) => setTimeout(resolve, writeMs));
    const killedAt = Date.now();
    await server.kill9();
    stopping = true;
    await Promise.all(writers);

    // The restarted server collects unreferenced files at once (no grace: nothing else writes now).
    server = await startServerProcess({
      ...serverOptions,
      env: { ...serverOptions.env, FILE_GC_GRACE_SECONDS: "0", FILE_GC_INTERVAL_SECONDS: "1" },
    });
    const restartMs = Date.now() - killedAt;
    const after = new ApiClient(server.url);
    const signIn = await after.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    if (signIn.status !== 200) throw new Error(`sign-in after restart failed: ${signIn.status}`);

    const lost: string[] = [];
    const versionsSeen = new Set<string>();
    for (const projectId of acked.projects) {
      const detail = await after.get(`/api/projects/${projectId}`);
      if (detail.status !== 200) {
        lost.push(`project ${projectId}`);
        continue;
      }
      for (const page of detail.body.data.pages as { versions: { id: string }[] }[])
        for (const version of page.versions) versionsSeen.add(version.id);
    }
    for (const versionId of acked.versions.keys())
      if (!versionsSeen.has(versionId)) lost.push(`upload ${versionId}`);
    const commentsByVersion = new Map<string, Set<string>>();
    for (const [commentId, versionId] of acked.comments) {
      if (!commentsByVersion.has(versionId)) {
        const list = await after.get(`/api/versions/${versionId}/comments`);
        const ids = list.status === 200 ? (list.body.data as { id: string }[]).map((c) => c.id) : [];
        commentsByVersion.set(versionId, new Set(ids));
      }
      if (!commentsByVersion.get(versionId)!.has(commentId)) lost.push(`comment ${commentId}`);
    }

    const tornFiles = await findTornFiles(path.join(dataDir, "files"));
    // The collector's first job starts a second after start-up; the queue polls every 2 s.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await server.kill9();
    server = null;
    const orphanFiles = await findOrphanFiles(dataDir, database.databaseUrl);
    return {
      driver,
      acknowledged: acked.projects.size + acked.versions.size + acked.comments.size,
      lost,
      tornFiles,
      restartMs,
      orphanFiles,
    };
  } finally {
    await server?.kill9();
    await database.release();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Signs up and verifies through the dev outbox (GET /api/dev/mailbox), as a person would. */
export async function signUpThroughOutbox(baseUrl: string, email: string): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  const signUp = await client.post("/api/auth/sign-up/email", { email, password: PASSWORD, name: "Crash" });
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${signUp.status}`);
  for (let attempt = 0; attempt < 100; attempt++) {
    const mailbox = await client.get<{ data: { to: string; text: string }[] }>("/api/dev/mailbox");
    const mail = mailbox.body.data.find((message) => message.to.includes(email));
    const link = mail?.text.match(/https?:\/\/\S+verifyEmail\S*/)?.[0];
    if (link) {
      const token = new URL(link).searchParams.get("oobCode")!;
      const verify = await client.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
      if (verify.status !== 200) throw new Error(`verify failed: ${verify.status}`);
      return client;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no verification mail in the outbox");
}

/**
 * The owner's new project with a member who may comment, and one screenshot in it (its version), all
 * through the API as the web app does it.
 */
export async function projectWithScreenshot(
  owner: ApiClient,
  options: { title: string; memberEmail: string; n: number },
): Promise<{ projectId: string; versionId: string }> {
  const project = await owner.post("/api/projects", { title: options.title });
  if (project.status !== 201) throw new Error(`project: ${project.status}`);
  const projectId = project.body.data.id as string;
  const member = await owner.post(`/api/projects/${projectId}/members`, {
    email: options.memberEmail,
    access: "comment",
  });
  if (member.status !== 201) throw new Error(`member: ${member.status}`);
  const upload = await owner.upload(`/api/projects/${projectId}/uploads`, {
    name: "shot.png",
    type: "image/png",
    bytes: await uniquePng(options.n),
  });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status}`);
  return { projectId, versionId: upload.body.data.versionId as string };
}

/** A different PNG for every n (its colour encodes n), so every upload stores a new file. */
export function uniquePng(n: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 32,
      height: 32,
      channels: 3,
      background: { r: n & 0xff, g: (n >> 8) & 0xff, b: (n >> 16) & 0xff },
    },
  })
    .png()
    .toBuffer();
}

/** Files under DATA_DIR/files that no row references, read from the database directly (server stopped). */
async function findOrphanFiles(dataDir: string, databaseUrl: string | undefined): Promise<string[]> {
  const handle = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, "pglite") });
  try {
    const referenced = await storedKeys(handle.db);
    const root = path.join(dataDir, "files");
    const files = await readdir(root, { recursive: true }).catch(() => [] as string[]);
    const orphans: string[] = [];
    for (const file of files) {
      const info = await stat(path.join(root, file)).catch(() => null);
      const key = file.split(path.sep).join("/");
      if (info?.isFile() && !referenced.has(key)) orphans.push(key);
    }
    return orphans;
  } finally {
    await handle.close();
  }
}

/** Empty files, and content-addressed files (`<sha256>.<ext>`) whose bytes hash to another name. */
export async function findTornFiles(filesDir: string): Promise<string[]> {
  const torn: string[] = [];
  let entries: string[];
  try {
    entries = await readdir(filesDir, { recursive: true });
  } catch {
    return torn; // nothing stored yet
  }
  for (const entry of entries) {
    // A write cut short leaves only its temporary file (storage.ts writes beside the final name, then
    // renames): never read under a real name, so not torn — an orphan the file collector removes.
    if (entry.endsWith(".tmp")) continue;
    const file = path.join(filesDir, entry);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      continue; // a directory
    }
    if (bytes.length === 0) {
      torn.push(`${entry} (empty)`);
      continue;
    }
    const hash = path.basename(entry).match(/^([0-9a-f]{64})(\.|$)/)?.[1];
    if (hash && createHash("sha256").update(bytes).digest("hex") !== hash) torn.push(`${entry} (bad hash)`);
  }
  return torn;
}
