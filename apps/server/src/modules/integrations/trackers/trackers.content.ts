/**
 * What a card says (issue #30): the comment's text (or the edit suggestion, or the ticket), the page's
 * URL (a slide's comment: the slide's number and deck, issue #32), the element, the screenshot where Redline keeps one (a ticket's; a comment's version's page screenshot,
 * a signed link: screenshot-link.ts) and a link back to Redline.
 * Loaded by the subject's id within the project; a subject of another project is not found.
 */
import { type CardSubject, legacyFromTarget } from "@redline/shared";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../../context.ts";
import type { Database } from "../../../db/index.ts";
import { commentEntries, comments, inspectChanges, pages, tickets } from "../../../db/schema/index.ts";
import { NotFoundError } from "../../../lib/errors.ts";
import { slideCommentUrl } from "../integration-events.ts";
import { screenshotLinkOf } from "../screenshot-link.ts";
import { slidePlaceOf } from "../slide-place.ts";
import type { CardContent } from "./tracker.ts";

const TITLE_MAX = 120;

const titleOf = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line || "Untitled";
};

const lines = (parts: (string | null | undefined | false)[]) => parts.filter(Boolean).join("\n");

export async function cardContent(
  ctx: Pick<AppContext, "config">,
  db: Pick<Database, "select" | "execute">,
  projectId: string,
  subject: CardSubject,
  id: string,
): Promise<CardContent> {
  const { appUrl } = ctx.config;
  if (subject === "comment") {
    const [row] = await db
      .select({ comment: comments, pageUrl: pages.url })
      .from(comments)
      .leftJoin(pages, eq(pages.id, comments.pageId))
      .where(and(eq(comments.id, id), eq(comments.projectId, projectId)));
    if (!row) throw new NotFoundError("This comment does not exist.", "comment-not-found");
    const [first] = await db
      .select({ body: commentEntries.body })
      .from(commentEntries)
      .where(eq(commentEntries.commentId, id))
      .orderBy(asc(commentEntries.createdAt), asc(commentEntries.id))
      .limit(1);
    const text = first?.body ?? "";
    const { slideId } = row.comment;
    if (slideId) {
      // A slide's comment (an illustration project): the slide, its deck, and the comment opened on it.
      const place = await slidePlaceOf(db, projectId, slideId);
      return {
        title: titleOf(text),
        description: lines([
          text,
          "",
          `Slide: ${place.slideNumber ?? "deleted"} of ${place.projectTitle}`,
          `View in Redline: ${slideCommentUrl(appUrl, projectId, id)}`,
        ]),
      };
    }
    const screenshot = await screenshotLinkOf(ctx.config, db, row.comment.versionId);
    const { querySelector } = legacyFromTarget(row.comment.target);
    return {
      title: titleOf(text),
      description: lines([
        text,
        "",
        `Page: ${row.pageUrl}`,
        querySelector && `Element: ${querySelector}`,
        screenshot && `Screenshot: ${screenshot}`,
        `View in Redline: ${appUrl}/project/${projectId}/${row.comment.pageId}?comment=${id}`,
      ]),
    };
  }
  if (subject === "edit") {
    const [row] = await db
      .select({ change: inspectChanges, pageUrl: pages.url })
      .from(inspectChanges)
      .innerJoin(pages, eq(pages.id, inspectChanges.pageId))
      .where(and(eq(inspectChanges.id, id), eq(inspectChanges.projectId, projectId)));
    if (!row) throw new NotFoundError("This edit does not exist.", "edit-not-found");
    const { change } = row;
    const after = change.changeType === "text" ? (change.after?.text ?? "") : (change.value ?? "");
    const what =
      change.changeType === "text"
        ? `Change the text to: ${after}`
        : change.changeType === "image"
          ? `Replace the image (${change.before ?? "current"}) with ${after.startsWith("/") ? `${ctx.config.contentOrigin}${after}` : after}`
          : `Set ${change.property}: ${after}${change.before ? ` (was ${change.before})` : ""}`;
    return {
      title: titleOf(`Edit: ${what}`),
      description: lines([
        what,
        "",
        `Page: ${row.pageUrl}`,
        `Element: ${change.querySelector}`,
        `View in Redline: ${appUrl}/project/${projectId}/${change.pageId}`,
      ]),
    };
  }
  const [ticket] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, id), eq(tickets.projectId, projectId)));
  if (!ticket) throw new NotFoundError("This ticket does not exist.", "ticket-not-found");
  return {
    title: titleOf(`#${ticket.number} ${ticket.title}`),
    description: lines([
      ticket.description,
      "",
      ticket.report && `Page: ${ticket.report.pageUrl}`,
      ticket.report?.element && `Element: ${ticket.report.element.selector}`,
      ticket.screenshotKey && `Screenshot: ${appUrl}/api/tickets/${ticket.id}/screenshot`,
      `View in Redline: ${appUrl}/project/${projectId}?ticket=${ticket.id}`,
    ]),
  };
}
