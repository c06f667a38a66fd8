/**
 * A bug-tracking project's widget settings: the public key its `<script>` snippet carries and the origins
 * allowed to send reports with it. The row is made on first read, with a random key.
 */
import { randomBytes } from "node:crypto";
import { isProjectExpired, productOf, type WidgetSettings } from "@redline/shared";
import { eq, type SQL } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { projects, users, widgetSettings } from "../../db/schema/index.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { ownerLimitsOf, ownerPlanColumns } from "../project-access/projects.load.ts";

export type WidgetSettingsRow = typeof widgetSettings.$inferSelect;

export const WIDGET_MESSAGES = {
  notBugTracking: "The widget belongs to bug-tracking projects.",
  unknownKey: "No project has this widget key.",
  originNotAllowed: "This site is not allowed to send reports to this project.",
  expired: "This project takes no new reports: it expired or was archived.",
} as const;

/** A new widget key: 144 random bits, URL-safe (the snippet's `data-key`). */
export function newWidgetKey(): string {
  return randomBytes(18).toString("base64url");
}

/** The project's settings, made on first read (two first reads at once share one row). */
export async function widgetSettingsOf(
  db: Database,
  project: { id: string; type: Parameters<typeof productOf>[0] },
): Promise<WidgetSettingsRow> {
  if (productOf(project.type) !== "browse")
    throw new NotFoundError(WIDGET_MESSAGES.notBugTracking, "not-found");
  const [existing] = await db.select().from(widgetSettings).where(eq(widgetSettings.projectId, project.id));
  if (existing) return existing;
  await db
    .insert(widgetSettings)
    .values({ projectId: project.id, key: newWidgetKey() })
    .onConflictDoNothing({ target: widgetSettings.projectId });
  const [made] = await db.select().from(widgetSettings).where(eq(widgetSettings.projectId, project.id));
  return made!;
}

/** The settings row and its project for a key sent by the widget (and whether it expired), or null. */
export const widgetByKey = (db: Database, key: string) => widgetWhere(db, eq(widgetSettings.key, key));

/** The same for a project (a report's ticket names it). */
export const widgetOfProject = (db: Database, projectId: string) =>
  widgetWhere(db, eq(widgetSettings.projectId, projectId));

async function widgetWhere(db: Database, where: SQL) {
  const [row] = await db
    .select({ settings: widgetSettings, project: projects, ...ownerPlanColumns })
    .from(widgetSettings)
    .innerJoin(projects, eq(projects.id, widgetSettings.projectId))
    .leftJoin(users, eq(users.id, projects.ownerId))
    .where(where);
  if (!row) return null;
  const isExpired = isProjectExpired(
    row.project.expiresAt,
    ownerLimitsOf(row)[productOf(row.project.type)].projects,
  );
  return { settings: row.settings, project: row.project, isExpired };
}

export function widgetSnippet(appUrl: string, key: string): string {
  return `<script src="${appUrl}/widget/v1/redline.js" data-key="${key}" async></script>`;
}

export function presentWidgetSettings(row: WidgetSettingsRow, appUrl: string): WidgetSettings {
  return {
    projectId: row.projectId,
    key: row.key,
    allowedOrigins: row.allowedOrigins,
    snippet: widgetSnippet(appUrl, row.key),
  };
}

/** An Origin header as stored in the allowed list: lower-case scheme and host, default port dropped. */
export function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}
