import type {
  CaptureBusyReason,
  MemberAccess,
  ProjectSharing,
  ProjectType,
  VersionKind,
  VersionStatus,
} from "@redline/shared";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { belongsTo, createdAt } from "./columns.ts";
import { teams } from "./teams.ts";
import { users } from "./users.ts";

/** Projects hold pages, pages hold versions (SPEC §3). */
export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    type: text("type").$type<ProjectType>().notNull(),
    ownerId: belongsTo("owner_id", () => users.id),
    /** The team the project belongs to (SPEC §4: its members edit); the creator stays its owner (ADR 0012). */
    teamId: text("team_id").references(() => teams.id, { onDelete: "set null" }),
    domain: text("domain"),
    source: text("source"),
    createdAt: createdAt(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
    isArchived: boolean("is_archived").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    isPluginDisabled: boolean("is_plugin_disabled").notNull().default(false),
    thumbnailKey: text("thumbnail_key"),
    sortOrder: integer("sort_order").notNull().default(0),
    approvers: text("approvers").array().notNull().default(sql`'{}'::text[]`),
    /** The public link's settings (SPEC §3 isShared); null = never shared by link. */
    sharing: jsonb("sharing").$type<ProjectSharing>(),
  },
  (table) => [index("projects_owner_idx").on(table.ownerId), index("projects_team_idx").on(table.teamId)],
);

export const pages = pgTable(
  "pages",
  {
    id: text("id").primaryKey(),
    projectId: belongsTo("project_id", () => projects.id),
    url: text("url").notNull(),
    title: text("title").notNull(),
    createdAt: createdAt(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
    isArchived: boolean("is_archived").notNull().default(false),
    isPDF: boolean("is_pdf").notNull().default(false),
    approved: jsonb("approved").$type<{ uid: string; date: string }>(),
    isDemo: boolean("is_demo").notNull().default(false),
    source: text("source"),
    screenshotSource: text("screenshot_source"),
    sortOrder: integer("sort_order").notNull().default(0),
    thumbnailKey: text("thumbnail_key"),
  },
  (table) => [index("pages_project_idx").on(table.projectId)],
);

export const versions = pgTable(
  "versions",
  {
    id: text("id").primaryKey(),
    pageId: belongsTo("page_id", () => pages.id),
    projectId: belongsTo("project_id", () => projects.id),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    kind: text("kind").$type<VersionKind>().notNull(),
    status: text("status").$type<VersionStatus>().notNull(),
    stage: text("stage"),
    failureReason: text("failure_reason"),
    /** For URL captures: the address captured; for uploads: null. */
    sourceUrl: text("source_url"),
    width: integer("width").notNull().default(1280),
    snapshotKey: text("snapshot_key"),
    screenshotKey: text("screenshot_key"),
    fileKey: text("file_key"),
    /** The uploaded file's size (image and PDF versions): what it counts against its owner's storage. */
    fileBytes: bigint("file_bytes", { mode: "number" }),
    viewport: jsonb("viewport").$type<{ width: number; height: number }>(),
    capture: jsonb("capture").$type<{
      timings: Record<string, number>;
      bytes: Record<string, number>;
      /** Whether the page was quiet when captured, and if not, what kept it busy. */
      settled?: { complete: boolean; busy: CaptureBusyReason[] };
    }>(),
    createdAt: createdAt(),
    createdBy: text("created_by"),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("versions_page_idx").on(table.pageId),
    index("versions_project_idx").on(table.projectId),
    unique("versions_page_number").on(table.pageId, table.number),
  ],
);

/**
 * The project's users besides its owner (SPEC §3 `users`): a user id once known, or an e-mail while the
 * invitation waits for that person to sign up. Invitations are claimed by the user id on verified sign-in.
 */
export const projectMembers = pgTable(
  "project_members",
  {
    id: text("id").primaryKey(),
    projectId: belongsTo("project_id", () => projects.id),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    access: text("access").$type<MemberAccess>().notNull(),
    addedBy: text("added_by"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("project_members_user_idx").on(table.projectId, table.userId),
    uniqueIndex("project_members_email_idx").on(table.projectId, table.email),
    index("project_members_by_user_idx").on(table.userId),
    index("project_members_by_email_idx").on(table.email),
  ],
);

/**
 * The team's collaborators toggled into one of its projects (SPEC §4: they comment there). A row only
 * counts while the user is still one of the project's team's collaborators.
 */
export const projectCollaborators = pgTable(
  "project_collaborators",
  {
    projectId: belongsTo("project_id", () => projects.id),
    userId: belongsTo("user_id", () => users.id),
    addedBy: text("added_by"),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.projectId, table.userId] }),
    index("project_collaborators_by_user_idx").on(table.userId),
  ],
);

/** Snapshot assets, content-addressed by SHA-256 and shared by every version that uses them. */
export const assets = pgTable("assets", {
  sha256: text("sha256").primaryKey(),
  contentType: text("content_type").notNull(),
  ext: text("ext").notNull(),
  size: bigint("size", { mode: "number" }).notNull(),
  createdAt: createdAt(),
  /**
   * Its uses are recorded (version_assets, or an inspect change's image): the file collector may remove it
   * once none is left. Assets stored before uses were recorded are false and always kept.
   */
  tracked: boolean("tracked").notNull().default(true),
});

/**
 * Which snapshot uses which asset, written by the capture worker. A version's rows go with it; an asset
 * cannot be deleted while a row names it (no cascade), so the collector never removes one in use.
 */
export const versionAssets = pgTable(
  "version_assets",
  {
    versionId: belongsTo("version_id", () => versions.id),
    sha256: text("sha256")
      .notNull()
      .references(() => assets.sha256),
  },
  (table) => [
    primaryKey({ columns: [table.versionId, table.sha256] }),
    index("version_assets_sha_idx").on(table.sha256),
  ],
);

export type ProjectRow = typeof projects.$inferSelect;
export type PageRow = typeof pages.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;
export type ProjectMemberRow = typeof projectMembers.$inferSelect;

/**
 * The project, page and version a row belongs to (comments, inspect changes), each deleted with them.
 * A function, so each table gets its own column builders.
 */
export const versionScope = () => ({
  projectId: belongsTo("project_id", () => projects.id),
  pageId: belongsTo("page_id", () => pages.id),
  versionId: belongsTo("version_id", () => versions.id),
});
