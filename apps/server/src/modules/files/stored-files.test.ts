/**
 * The one record of stored files (ADR 0022): every row that holds a file is in `stored_files`, the storage
 * figure is the record's sum, deleting a holder releases its files, and migration 0022 backfills the record
 * of a database written before it.
 */

import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { is, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, migrationsFolder, openDatabase } from "../../db/index.ts";
import * as schema from "../../db/schema/index.ts";
import { HOLDER_KINDS } from "../../db/schema/index.ts";
import { createTestDatabase, drivers, type TestDriver } from "../../testing/test-db.ts";
import { usedBytesSql } from "../plans/storage.ts";

/**
 * Every column that holds a stored file's key or path, and the keys it holds. A column is looked at when its
 * name says it may hold a file (`FILE_NAMED`); a new one must be added here (and to the record: migration
 * 0022's `stored_file_sources` and a trigger) or to `NOT_FILES` with the reason.
 */
const FILE_COLUMNS: Record<string, string> = {
  "versions.snapshot_key": "select snapshot_key from versions",
  "versions.screenshot_key": "select screenshot_key from versions",
  "versions.file_key": "select file_key from versions",
  "version_assets.sha256":
    "select 'assets/' || a.sha256 || '.' || a.ext from version_assets va join assets a on a.sha256 = va.sha256",
  "assets.sha256": "select 'assets/' || sha256 || '.' || ext from assets where not tracked",
  "inspect_changes.value":
    "select 'assets/' || a.sha256 || '.' || a.ext from inspect_changes c join assets a on c.value = '/a/' || a.sha256 || '.' || a.ext",
  "pages.thumbnail_key": "select thumbnail_key from pages",
  "projects.thumbnail_key": "select thumbnail_key from projects",
  "users.photo_url": "select substr(photo_url, 8) from users where photo_url like '/files/%'",
  "teams.theme": `select substr(theme->>'logoURL', 8) from teams where theme->>'logoURL' like '/files/%'
    union select substr(theme->>'iconURL', 8) from teams where theme->>'iconURL' like '/files/%'`,
  "comment_entries.attachments":
    "select f->>'path' from comment_entries, jsonb_array_elements(attachments) as f",
  "comment_entries.video_key": "select video_key from comment_entries",
  "comment_entries.video_poster_key": "select video_poster_key from comment_entries",
  "tickets.screenshot_key": "select screenshot_key from tickets",
  "tickets.replay_key": "select replay_key from tickets",
  "ticket_entries.video_key": "select video_key from ticket_entries",
  "ticket_entries.video_poster_key": "select video_poster_key from ticket_entries",
  "ticket_entries.attachments":
    "select f->>'path' from ticket_entries, jsonb_array_elements(attachments) as f",
  "conversation_messages.attachments":
    "select f->>'path' from conversation_messages, jsonb_array_elements(attachments) as f",
  "support_messages.details": `select f->>'key' from support_messages, jsonb_array_elements(case
    when jsonb_typeof(details->'screenshots') = 'array' then details->'screenshots' else '[]'::jsonb end) as f`,
  "slide_images.key": "select key from slide_images",
};

/** Columns whose names look like a file's but hold none. */
const NOT_FILES: Record<string, string> = {
  "stored_files.key": "the record itself",
  "browse_lists.sort_key": "an ordering position",
  "tickets.sort_key": "an ordering position",
  "payment_provider_objects.lookup_key": "a payment provider's lookup key",
  "rate_limits.key": "a rate limit's key",
  "widget_settings.key": "the widget's public key",
  "conversation_participants.photo_url":
    "a copy of the participant's avatar URL; the user's row holds the file",
  "pages.screenshot_source": "where a live screenshot comes from, not a stored file",
  "versions.source_url": "the captured page's address",
  "merge_gate_commits.preview_url": "a pull request's deployed preview, an address at the customer's host",
  "inspect_changes.image_dimensions": "an image's width and height",
  "admin_audit.details": "what an operator's action changed (ids, plan names), never a file",
};

const FILE_NAMED =
  /(^key$|_key$|_url$|attachments|theme|details|screenshot|replay|file|photo|logo|icon|thumbnail|image|path)/;
const SIZES = /_bytes$/;

describe("which columns hold files", () => {
  it("knows every column whose name says it may hold a file", () => {
    const unknown: string[] = [];
    for (const table of Object.values(schema)) {
      if (!is(table, PgTable)) continue;
      const config = getTableConfig(table);
      for (const column of config.columns) {
        const name = `${config.name}.${column.name}`;
        if (!FILE_NAMED.test(column.name) || SIZES.test(column.name)) continue;
        if (!(name in FILE_COLUMNS) && !(name in NOT_FILES)) unknown.push(name);
      }
    }
    expect(
      unknown,
      "columns that may hold files: add them to the record (migration) and FILE_COLUMNS",
    ).toEqual([]);
  });
});

type Exec = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

const executor =
  (db: Database): Exec =>
  async (text) =>
    (await db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };

/** Bytes each seed puts in the owner's web and browse projects (what the storage figure must show). */
const SEEDED = { web: 1000 + 300 + 50, browse: 200 + 400 + 70 + 90 };

/** One row of every kind that holds a file, through plain SQL (so it also runs before migration 0022). */
async function seed(exec: Exec, n: string) {
  const statements = [
    `insert into users (id, email, photo_url) values ('u${n}', 'u${n}@example.com', '/files/avatars/u${n}.png')`,
    `insert into teams (id, product, name, owner_id, theme) values ('t${n}', 'web', 'Team', 'u${n}',
      '{"logoURL": "/files/teams/t${n}/logo.png", "iconURL": "/files/teams/t${n}/icon.png"}')`,
    `insert into projects (id, title, type, owner_id, thumbnail_key)
      values ('pw${n}', 'Web', 'web', 'u${n}', 'thumbnails/projects/pw${n}.jpg'),
             ('pb${n}', 'Board', 'browse', 'u${n}', null)`,
    `insert into pages (id, project_id, url, title, thumbnail_key)
      values ('g${n}', 'pw${n}', 'https://example.com', 'Home', 'thumbnails/pages/g${n}.jpg')`,
    `insert into versions (id, page_id, project_id, number, title, kind, status, snapshot_key, screenshot_key, file_key, file_bytes)
      values ('v${n}', 'g${n}', 'pw${n}', 1, 'V1', 'snapshot', 'ready', 'snapshots/v${n}.html', 'screenshots/v${n}.png',
        'uploads/pw${n}/file.pdf', 1000)`,
    `insert into assets (sha256, content_type, ext, size, tracked) values
      ('${"a".repeat(63)}${n}', 'image/png', 'png', 11, true),
      ('${"b".repeat(63)}${n}', 'image/png', 'png', 12, false),
      ('${"c".repeat(63)}${n}', 'image/png', 'png', 300, true)`,
    `insert into version_assets (version_id, sha256) values ('v${n}', '${"a".repeat(63)}${n}')`,
    `insert into inspect_changes (id, project_id, page_id, version_id, change_type, query_selector, anchor, property, value, device_size)
      values ('ic${n}', 'pw${n}', 'g${n}', 'v${n}', 'image', 'img', '{}', 'src', '/a/${"c".repeat(63)}${n}.png', 'desktop')`,
    `insert into comments (id, project_id, page_id, version_id, dot_position, device_size, device_width)
      values ('c${n}', 'pw${n}', 'g${n}', 'v${n}', '{"x": 0, "y": 0}', 'desktop', 1200)`,
    // Two entries name one attachment: it is stored, and counted, once.
    `insert into comment_entries (id, comment_id, body, attachments) values
      ('ce${n}', 'c${n}', 'See', '[{"path": "attachments/pw${n}/one", "size": 50}]'),
      ('ce2${n}', 'c${n}', 'Again', '[{"path": "attachments/pw${n}/one", "size": 50}]')`,
    `insert into tickets (id, project_id, number, sort_key, intake, title, screenshot_key, screenshot_bytes, replay_key, replay_bytes)
      values ('tk${n}', 'pb${n}', 1, 'a', 'widget', 'Broken', 'tickets/pb${n}/shot.png', 200, 'tickets/pb${n}/replay.json', 400)`,
    `insert into ticket_entries (id, ticket_id, body, attachments)
      values ('te${n}', 'tk${n}', 'Log', '[{"path": "tickets/pb${n}/log.txt", "size": 70}]')`,
    `insert into conversations (id, kind, project_id) values ('cv${n}', 'project', 'pb${n}')`,
    `insert into conversation_messages (id, conversation_id, sender_id, sender_name, attachments)
      values ('m${n}', 'cv${n}', 'u${n}', 'U', '[{"path": "conversations/cv${n}/x", "size": 90}]')`,
    `insert into support_messages (id, kind, user_id, name, email, subject, message, details)
      values ('s${n}', 'bug', 'u${n}', 'U', 'u${n}@example.com', 'Help', 'It broke',
        '{"screenshots": [{"key": "support/s${n}/shot.png"}]}')`,
  ];
  for (const statement of statements) await exec(statement);
}

/**
 * A processed video comment (migration 0033) and a ticket entry's video (0035): each video counts at its
 * size, its poster is not metered.
 */
const VIDEO_BYTES = 25;
const TICKET_VIDEO_BYTES = 15;
async function seedVideo(exec: Exec, n: string) {
  await exec(`update comment_entries set video_status = 'ready', video_key = 'videos/pw${n}/ce${n}.webm',
    video_poster_key = 'videos/pw${n}/ce${n}.jpg', video_bytes = ${VIDEO_BYTES} where id = 'ce${n}'`);
  await exec(`update ticket_entries set video_status = 'ready', video_key = 'videos/pb${n}/te${n}.webm',
    video_poster_key = 'videos/pb${n}/te${n}.jpg', video_bytes = ${TICKET_VIDEO_BYTES} where id = 'te${n}'`);
}

/** A deck's uploaded image (migration 0034), 5 bytes in the owner's web project. */
const SLIDE_IMAGE_BYTES = 5;
async function seedSlideImage(exec: Exec, n: string) {
  await exec(
    `insert into slide_images (id, project_id, key, bytes) values ('si${n}', 'pw${n}', 'slides/pw${n}/${"e".repeat(64)}.png', ${SLIDE_IMAGE_BYTES})`,
  );
}

/** The storage figure of an owner, as the app shows it (plans/storage.ts). */
async function figure(db: Database, owner: string) {
  const [row] = (
    (await db.execute(
      sql`select ${usedBytesSql(owner, "web")} as web, ${usedBytesSql(owner, "browse")} as browse`,
    )) as unknown as { rows: { web: number | string; browse: number | string }[] }
  ).rows;
  return { web: Number(row?.web), browse: Number(row?.browse) };
}

/** The record's sum for an owner: each stored file once, at its size. */
async function recordSum(exec: Exec, owner: string) {
  const { rows } = await exec(`select p.type, coalesce(sum(bytes), 0)::float8 as bytes from (
      select distinct on (f.key) f.key, f.bytes, f.project_id from stored_files f where f.bytes is not null
    ) f join projects p on p.id = f.project_id where p.owner_id = '${owner}' group by p.type`);
  const of = (type: string) => Number(rows.find((row) => row.type === type)?.bytes ?? 0);
  return { web: of("web"), browse: of("browse") };
}

/** Keys some column holds that the record does not know. */
async function unrecorded(exec: Exec): Promise<string[]> {
  const missing: string[] = [];
  for (const [column, query] of Object.entries(FILE_COLUMNS)) {
    const { rows } = await exec(`select k as key from (${query}) as held(k)
      where k is not null and not exists (select 1 from stored_files f where f.key = held.k)`);
    for (const row of rows) missing.push(`${column}: ${String(row.key)}`);
  }
  return missing;
}

describe.each(drivers())("the record of stored files (%s)", (driver: TestDriver) => {
  const opened: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const handle of opened) await handle.close();
  });
  const open = async () => {
    const test = await createTestDatabase(driver);
    const handle = await openDatabase(test);
    opened.push({
      async close() {
        await handle.close();
        await test.release();
      },
    });
    return handle.db;
  };

  it("records every kind of holder, and the storage figure equals the record's sum", async () => {
    const db = await open();
    const exec = executor(db);
    await seed(exec, "1");
    await seedVideo(exec, "1");
    await seedSlideImage(exec, "1");
    expect(await unrecorded(exec)).toEqual([]);
    const { rows } = await exec("select distinct holder_kind from stored_files order by holder_kind");
    expect(rows.map((row) => row.holder_kind)).toEqual([...HOLDER_KINDS].sort());
    const withBoth = {
      web: SEEDED.web + VIDEO_BYTES + SLIDE_IMAGE_BYTES,
      browse: SEEDED.browse + TICKET_VIDEO_BYTES,
    };
    expect(await figure(db, "u1")).toEqual(withBoth);
    expect(await recordSum(exec, "u1")).toEqual(withBoth);
  });

  it("follows its holders' changes in their transaction, and a rolled-back write records nothing", async () => {
    const db = await open();
    const exec = executor(db);
    await seed(exec, "2");
    await exec("update versions set file_bytes = 2500 where id = 'v2'");
    await exec(`update comment_entries set attachments = '[]' where id = 'ce22'`);
    expect((await figure(db, "u2")).web).toBe(2500 + 300 + 50);
    await exec(`update comment_entries set attachments = '[]' where id = 'ce2'`);
    expect((await figure(db, "u2")).web).toBe(2500 + 300);
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`update tickets set replay_key = 'tickets/pb2/other.json' where id = 'tk2'`);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await unrecorded(exec)).toEqual([]);
    const { rows } = await exec("select key from stored_files where key like 'tickets/pb2/%' order by key");
    expect(rows.map((row) => row.key)).toEqual([
      "tickets/pb2/log.txt",
      "tickets/pb2/replay.json",
      "tickets/pb2/shot.png",
    ]);
  });

  it("releases every file when its holders go, cascades included", async () => {
    const db = await open();
    const exec = executor(db);
    await seed(exec, "3");
    await seedVideo(exec, "3");
    await seedSlideImage(exec, "3");
    await exec("delete from projects where owner_id = 'u3'");
    await exec("delete from support_messages where id = 's3'");
    await exec("delete from teams where id = 't3'");
    await exec(`delete from assets where not tracked`);
    await exec("update users set photo_url = null where id = 'u3'");
    expect(await figure(db, "u3")).toEqual({ web: 0, browse: 0 });
    const { rows } = await exec("select key from stored_files order by key");
    // The tracked assets keep their rows, but nothing holds them: the collector removes them.
    expect(rows).toEqual([]);
  });
});

/** A database migrated up to 0021 (before the record), from a copy of the migrations folder. */
async function migrationsUpTo(lastIndex: number): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "redline-migrations-"));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= lastIndex);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

/** What plans/storage.ts summed before the record: the unions over every table that holds files. */
const LEGACY_FIGURE = (owner: string, types: string) => `
  select coalesce(sum(bytes), 0)::float8 as bytes from (select key, max(bytes) as bytes from (
    select v.file_key as key, v.file_bytes as bytes from projects p join versions v on v.project_id = p.id
      where p.owner_id = '${owner}' and p.type in (${types}) and v.file_key is not null and v.file_bytes is not null
    union all select a->>'path', coalesce((a->>'size')::bigint, 0) from projects p
      join comments c on c.project_id = p.id join comment_entries e on e.comment_id = c.id
      cross join lateral jsonb_array_elements(e.attachments) as a where p.owner_id = '${owner}' and p.type in (${types})
    union all select 'assets/' || s.sha256 || '.' || s.ext, s.size from projects p
      join inspect_changes ic on ic.project_id = p.id
      join assets s on s.sha256 = substr(ic.value, 4, 64) and ic.value = '/a/' || s.sha256 || '.' || s.ext
      where p.owner_id = '${owner}' and p.type in (${types}) and ic.change_type = 'image'
    union all select t.screenshot_key, coalesce(t.screenshot_bytes, 0) from projects p join tickets t on t.project_id = p.id
      where p.owner_id = '${owner}' and p.type in (${types}) and t.screenshot_key is not null
    union all select t.replay_key, coalesce(t.replay_bytes, 0) from projects p join tickets t on t.project_id = p.id
      where p.owner_id = '${owner}' and p.type in (${types}) and t.replay_key is not null
    union all select a->>'path', coalesce((a->>'size')::bigint, 0) from projects p
      join tickets t on t.project_id = p.id join ticket_entries e on e.ticket_id = t.id
      cross join lateral jsonb_array_elements(e.attachments) as a where p.owner_id = '${owner}' and p.type in (${types})
    union all select a->>'path', coalesce((a->>'size')::bigint, 0) from projects p
      join conversations cv on cv.project_id = p.id join conversation_messages m on m.conversation_id = cv.id
      cross join lateral jsonb_array_elements(m.attachments) as a where p.owner_id = '${owner}' and p.type in (${types})
  ) as files group by key) as held`;

describe.each(drivers())("migration 0022 on a database written before it (%s)", (driver: TestDriver) => {
  it("backfills the record: the same storage figure, and every stored file known", async () => {
    const before = await migrationsUpTo(21);
    const admin = process.env.TEST_DATABASE_URL;
    let db: Database;
    let done: () => Promise<void>;
    if (driver === "postgres" && admin) {
      const name = `redline_backfill_${randomBytes(6).toString("hex")}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      const pool = new pg.Pool({ connectionString: url.toString() });
      pool.on("error", () => undefined); // its connections end when the database is dropped
      const pgDb = drizzlePg(pool, { schema });
      await migratePg(pgDb, { migrationsFolder: before });
      db = pgDb as unknown as Database;
      done = async () => {
        await pool.end();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      };
      await seed(executor(db), "9");
      await migratePg(pgDb, { migrationsFolder });
    } else {
      const embedded = new PGlite("memory://");
      const liteDb = drizzlePglite(embedded, { schema });
      await migratePglite(liteDb, { migrationsFolder: before });
      db = liteDb as unknown as Database;
      done = () => embedded.close();
      await seed(executor(db), "9");
      await migratePglite(liteDb, { migrationsFolder });
    }
    try {
      const exec = executor(db);
      const legacy = async (types: string) => Number((await exec(LEGACY_FIGURE("u9", types))).rows[0]?.bytes);
      const legacyWeb = await legacy("'web', 'webapp', 'image', 'illustration', 'demo'");
      const legacyBrowse = await legacy("'browse', 'mobile'");
      expect({ web: legacyWeb, browse: legacyBrowse }).toEqual(SEEDED);
      expect(await figure(db, "u9")).toEqual(SEEDED);
      expect(await unrecorded(exec)).toEqual([]);
    } finally {
      await done();
    }
  });
});
