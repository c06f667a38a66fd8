/**
 * The bug-tracking board (SPEC §3 Ticket and Browse list, §4 ticket states): the API contract both sides
 * read — lists, tickets, their threads, triage, the widget's report — and the pure rules of the board.
 */
import { generateKeyBetween } from "fractional-indexing";
import { z } from "zod";
import {
  anchorSchema,
  attachmentSchema,
  commentAuthorSchema,
  MAX_ATTACHMENTS,
  threadEntrySchema,
} from "./comments.ts";
import { type Target, targetSchema } from "./targets.ts";
import { VIDEO_UPLOAD_ID, videoInputSchema } from "./video.ts";

/** A new list's title (SPEC §3 Browse list). */
export const DEFAULT_LIST_TITLE = "Untitled";
export const MAX_LIST_TITLE = 100;
export const MAX_TICKET_TITLE = 200;
export const MAX_TICKET_DESCRIPTION = 10_000;
export const MAX_TICKET_ENTRY = 5000;

/**
 * Where a ticket stands in intake: widget reports wait in `triage` until a member accepts them into a list,
 * merges them into another ticket (`duplicate`) or rejects them. Tickets written on the board are accepted.
 */
export const TICKET_INTAKE = ["triage", "accepted", "rejected", "duplicate"] as const;
export type TicketIntake = (typeof TICKET_INTAKE)[number];

const id = z.string().min(1).max(64);
/** A calendar day, YYYY-MM-DD (a due date has no time of day). */
export const dueDateSchema = z.iso.date();

// ---- What the widget captures --------------------------------------------------------------------------

export const MAX_CONSOLE_ENTRIES = 50;
export const MAX_FAILED_REQUESTS = 50;
const short = (max: number) => z.string().max(max);

export const ticketReportSchema = z
  .object({
    pageUrl: z.url().max(2048),
    pageTitle: short(300).default(""),
    /**
     * The element the reporter clicked, or null for a dragged region: a CSS selector and a text excerpt to
     * read, and the element's anchor from @redline/anchoring (the same a comment's pin has), so the element
     * can be found again on a newer version of the page. Widget scripts older than the anchor send none.
     */
    element: z
      .object({
        selector: short(1000),
        text: short(300).default(""),
        tag: short(40).default(""),
        anchor: z.nullable(anchorSchema).default(null),
      })
      .strict()
      .nullable()
      .default(null),
    /** The marked region in page CSS pixels, relative to the viewport at capture. */
    region: z
      .object({ x: z.number(), y: z.number(), width: z.number().min(0), height: z.number().min(0) })
      .strict()
      .nullable()
      .default(null),
    viewport: z
      .object({
        width: z.number().int().min(1).max(100_000),
        height: z.number().int().min(1).max(100_000),
        devicePixelRatio: z.number().min(0.1).max(10).default(1),
      })
      .strict(),
    userAgent: short(1000).default(""),
    browser: short(100).default(""),
    os: short(100).default(""),
    /** Console messages, uncaught errors and unhandled rejections, oldest first. */
    console: z
      .array(
        z
          .object({
            level: z.enum(["log", "info", "warn", "error", "uncaught", "unhandledrejection"]),
            message: short(2000),
            at: z.number(),
          })
          .strict(),
      )
      .max(MAX_CONSOLE_ENTRIES)
      .default([]),
    failedRequests: z
      .array(
        z
          .object({
            method: short(16),
            url: short(2048),
            /** 0 when the request never got an answer (network error, blocked). */
            status: z.number().int().min(0).max(999),
            at: z.number(),
          })
          .strict(),
      )
      .max(MAX_FAILED_REQUESTS)
      .default([]),
  })
  .strict();
export type TicketReport = z.infer<typeof ticketReportSchema>;

/**
 * The element a widget report names, as the one target type a comment's pin has (an element: its anchor,
 * and its selector when the anchor does not say it already); null for a dragged region. The point is the
 * anchor's dot (where in the element it was picked), or the middle of an element named without an anchor.
 * Stored in `tickets.target` (migration 0038 does the same in SQL).
 */
export function ticketTargetOf(report: TicketReport | null): Target | null {
  const element = report?.element;
  if (!element) return null;
  const { anchor, selector } = element;
  return {
    kind: "element",
    anchor,
    ...(selector !== "" && selector !== anchor?.querySelector ? { selector } : {}),
    point: anchor?.dot ? { x: anchor.dot.x, y: anchor.dot.y } : { x: 0.5, y: 0.5 },
  };
}

// ---- Inputs ------------------------------------------------------------------------------------------

export const createListSchema = z
  .object({ title: z.string().trim().max(MAX_LIST_TITLE).default(DEFAULT_LIST_TITLE) })
  .strict();
/** Rename, or move between two neighbours (ids; null = at that end). */
export const updateListSchema = z
  .object({
    title: z.string().trim().min(1).max(MAX_LIST_TITLE),
    move: z.object({ afterId: id.nullable(), beforeId: id.nullable() }).strict(),
  })
  .partial()
  .strict();

export const createTicketSchema = z
  .object({
    listId: id,
    title: z.string().trim().min(1).max(MAX_TICKET_TITLE),
    description: z.string().max(MAX_TICKET_DESCRIPTION).default(""),
  })
  .strict();

export const updateTicketSchema = z
  .object({
    title: z.string().trim().min(1).max(MAX_TICKET_TITLE),
    description: z.string().max(MAX_TICKET_DESCRIPTION),
    /** A member of the project (a user id), or null to unassign. */
    assignedTo: id.nullable(),
    dueDate: dueDateSchema.nullable(),
    isResolved: z.boolean(),
  })
  .partial()
  .strict();

/** Move a card into a list between two of its cards (ids; null = at that end). One row is written. */
export const moveTicketSchema = z
  .object({ listId: id, afterId: id.nullable().default(null), beforeId: id.nullable().default(null) })
  .strict();

export const triageTicketSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("accept"), listId: id }).strict(),
  z.object({ action: z.literal("duplicate"), of: id }).strict(),
  z.object({ action: z.literal("reject") }).strict(),
]);
export type TriageTicketInput = z.infer<typeof triageTicketSchema>;

export const ticketEntrySchema = z
  .object({
    comment: z.string().trim().min(1).max(MAX_TICKET_ENTRY),
    attachments: z.array(attachmentSchema).max(MAX_ATTACHMENTS).default([]),
    /** A recorded video (video.ts), as a comment's reply carries one: measured and processed by the server. */
    video: videoInputSchema.optional(),
  })
  .strict();
export const editTicketEntrySchema = z
  .object({ comment: z.string().trim().min(1).max(MAX_TICKET_ENTRY) })
  .strict();

/** Board filters (the query of GET board; the web applies the same rules to what it holds). */
export const boardFilterSchema = z
  .object({
    assignee: id.optional(),
    reporter: id.optional(),
    resolved: z.enum(["true", "false"]).optional(),
    due: z.enum(["overdue", "week", "none"]).optional(),
    q: z.string().max(200).optional(),
  })
  .strict();
export type BoardFilter = z.infer<typeof boardFilterSchema>;

// ---- What the API answers ----------------------------------------------------------------------------

export const browseListAbilitiesSchema = z.strictObject({
  rename: z.boolean(),
  move: z.boolean(),
  delete: z.boolean(),
  addTicket: z.boolean(),
});
export type BrowseListAbilities = z.infer<typeof browseListAbilitiesSchema>;

export const browseListSchema = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  sortKey: z.string(),
  createdAt: z.iso.datetime(),
  createdBy: z.string().nullable(),
  abilities: browseListAbilitiesSchema,
});
export type BrowseList = z.infer<typeof browseListSchema>;

export const ticketAbilitiesSchema = z.strictObject({
  update: z.boolean(),
  move: z.boolean(),
  assign: z.boolean(),
  resolve: z.boolean(),
  reply: z.boolean(),
  attach: z.boolean(),
  /** Accept, mark duplicate, reject (a ticket in triage). */
  triage: z.boolean(),
  delete: z.boolean(),
});
export type TicketAbilities = z.infer<typeof ticketAbilitiesSchema>;

/** A member, or a widget guest known by the name they gave (`isGuest`): shown as a comment's author is. */
export const ticketPersonSchema = commentAuthorSchema;
export type TicketPerson = z.infer<typeof ticketPersonSchema>;

export const ticketSchema = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  number: z.number().int().min(1),
  listId: z.string().nullable(),
  sortKey: z.string(),
  intake: z.enum(TICKET_INTAKE),
  duplicateOf: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  isResolved: z.boolean(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.iso.datetime().nullable(),
  assignedTo: z.string().nullable(),
  assignee: ticketPersonSchema.nullable(),
  dueDate: dueDateSchema.nullable(),
  reporter: ticketPersonSchema,
  /** A signed URL of the report's screenshot (with the reporter's marks), or null. */
  screenshotUrl: z.string().nullable(),
  hasReplay: z.boolean(),
  report: ticketReportSchema.nullable(),
  /** The reported element as a target (targets.ts), or null (a region, or a ticket from the board). */
  target: targetSchema.nullable(),
  /** Entries of the thread beyond the first (SPEC §3: the card's comment count). */
  commentCount: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  modifiedAt: z.iso.datetime(),
  abilities: ticketAbilitiesSchema,
});
export type Ticket = z.infer<typeof ticketSchema>;

/** SPEC §3 Ticket thread: an entry is a comment's (comments.ts), a recorded video and all. */
export type TicketEntry = z.infer<typeof threadEntrySchema>;

export const ticketDetailSchema = ticketSchema.extend({ thread: z.array(threadEntrySchema) });
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

export const boardAbilitiesSchema = z.strictObject({
  createList: z.boolean(),
  createTicket: z.boolean(),
  triage: z.boolean(),
  /** Set up the widget (key, allowed origins). */
  manageWidget: z.boolean(),
});
export type BoardAbilities = z.infer<typeof boardAbilitiesSchema>;

export const boardSchema = z.strictObject({
  projectId: z.string(),
  lists: z.array(browseListSchema),
  /** Every ticket of the project not rejected or merged: in triage (listId null) or in a list. */
  tickets: z.array(ticketSchema),
  /** The people a ticket can be assigned to (the project's members with an account). */
  assignees: z.array(ticketPersonSchema),
  /** The plan's ticket limit for the project's owner (-1 unlimited) and the tickets it counts. */
  ticketLimit: z.strictObject({ limit: z.number().int().min(-1), used: z.number().int().min(0) }),
  abilities: boardAbilitiesSchema,
});
export type Board = z.infer<typeof boardSchema>;

/** DELETE of a ticket or a list: it is gone. */
export const boardItemDeletedSchema = z.strictObject({ deleted: z.literal(true) });
/** DELETE /api/tickets/{id}/entries/{entryId}: whether the ticket went with it (its only entry). */
export const ticketEntryDeletedSchema = z.strictObject({ ticketDeleted: z.boolean() });

// ---- Widget settings -----------------------------------------------------------------------------------

/** An origin a report may come from: scheme, host and optional port, nothing else. */
export const widgetOriginSchema = z
  .string()
  .trim()
  .max(300)
  .regex(
    /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i,
    "An origin is a scheme and a host, e.g. https://example.com",
  );

export const updateWidgetSchema = z.object({ allowedOrigins: z.array(widgetOriginSchema).max(50) }).strict();

export const widgetSettingsSchema = z.strictObject({
  projectId: z.string(),
  key: z.string(),
  allowedOrigins: z.array(z.string()),
  /** The `<script>` snippet to paste before `</body>`. */
  snippet: z.string(),
});
export type WidgetSettings = z.infer<typeof widgetSettingsSchema>;

/** The widget's guest reporter, given once and kept in the browser. */
export const widgetReporterSchema = z
  .object({ name: z.string().trim().min(1).max(100), email: z.email().max(254) })
  .strict();

/** What the widget posts (multipart field `report`, JSON; the screenshot in field `screenshot`). */
export const widgetReportSchema = z
  .object({
    key: z.string().min(8).max(64),
    title: z.string().trim().max(MAX_TICKET_TITLE).default(""),
    note: z.string().trim().min(1).max(MAX_TICKET_ENTRY),
    reporter: widgetReporterSchema,
    report: ticketReportSchema,
  })
  .strict();
export type WidgetReportInput = z.infer<typeof widgetReportSchema>;

/**
 * The intake's answer: the new ticket, and where and with what its reporter's screen recording may be
 * uploaded (tus, the token in `WIDGET_VIDEO_TOKEN_HEADER`), then named at `video.attach`.
 */
export const widgetReportAnswerSchema = z.strictObject({
  id: z.string(),
  number: z.number().int(),
  video: z.strictObject({
    uploads: z.string(),
    attach: z.string(),
    token: z.string(),
    expiresAt: z.string(),
  }),
});
export type WidgetReportAnswer = z.infer<typeof widgetReportAnswerSchema>;

/** The widget names its finished upload: it becomes the video of the report's first entry. */
export const widgetVideoSchema = z.strictObject({ upload: z.string().regex(VIDEO_UPLOAD_ID) });

// ---- Pure rules ----------------------------------------------------------------------------------------

/** SPEC §4: deleting the only entry of a thread deletes the ticket; otherwise only that entry goes. */
export function deletingEntryDeletesTicket(threadLength: number): boolean {
  return threadLength <= 1;
}

/** A ticket's title from the reporter's note when they gave none: its first line, cut to 80 characters. */
export function titleFromNote(note: string): string {
  const line = note.trim().split("\n")[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export const TICKET_MESSAGES = {
  created: "created a ticket on",
  noAssignee: "Unassigned",
  triageTitle: "Triage",
  triageEmpty: "No new reports. Reports sent from the widget land here first.",
  titleRequired: "A ticket needs a title.",
} as const;

/**
 * The order key between two neighbours' keys (null = that end), from `fractional-indexing`: the server
 * writes it when a list or card moves, and the web uses the same rule to show the move before the answer.
 */
export function sortKeyBetween(after: string | null, before: string | null): string {
  // Two cards moved to the same place at once share a key; order then falls back to the id, and the
  // next move between them gets a key of its own (equal neighbours are treated as one).
  if (after !== null && before !== null && after >= before) return generateKeyBetween(after, null);
  return generateKeyBetween(after, before);
}
