/**
 * The widget's report intake, called cross-site from the pages that embed the snippet. No session and no
 * same-origin check: the project key in the report and that project's allowed origins stand in for them
 * (the `widget-key` caller its declaration accepts). The recipe, in order: read the `report` field → the key
 * (404) → the Origin (403) → the key's rate (429) → the report's shape (400) → the files (image by its
 * bytes, 400; sizes, 413) → store, then create the ticket in triage. Nothing is stored before every check
 * has passed.
 */
import { createHash } from "node:crypto";
import {
  dataAnswer,
  formatBytes,
  MAX_UPLOAD_BYTES,
  titleFromNote,
  widgetReportAnswerSchema,
  widgetReportSchema,
} from "@redline/shared";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import sharp from "sharp";
import { ZodError } from "zod";
import type { AppContext } from "../../context.ts";
import { widgetSettings } from "../../db/schema/index.ts";
import {
  BadRequestError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
} from "../../lib/errors.ts";
import { detectImage } from "../../lib/images.ts";
import { route } from "../../lib/routes.ts";
import { storedKeysAmong } from "../files/stored-files.ts";
import { countHit } from "../rate-limits/api-rate-limit.ts";
import { createTicket } from "../tickets/tickets.service.ts";
import { normalizeOrigin, WIDGET_MESSAGES, widgetByKey } from "./widget.settings.ts";
import { widgetVideoGrant } from "./widget-video.routes.ts";

export const WIDGET_LIMITS = {
  /** The `report` field (JSON). */
  reportBytes: 256 * 1024,
  screenshotBytes: MAX_UPLOAD_BYTES,
  replayBytes: 2 * 1024 * 1024,
  /** Reports per key per minute. */
  reportsPerMinute: 30,
} as const;
const WINDOW_MS = 60_000;
const INTAKE = "/api/widget/reports";
/** Anything longer than every part at its limit, with room for the multipart framing. */
const MAX_BODY =
  WIDGET_LIMITS.reportBytes + WIDGET_LIMITS.screenshotBytes + WIDGET_LIMITS.replayBytes + 64 * 1024;

const tooLarge = (what: string, bytes: number) =>
  new PayloadTooLargeError(`The ${what} is larger than ${formatBytes(bytes)}.`, "max-file-size");

export async function widgetIntakeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { storage } = ctx;
  const { db, executeSql } = ctx.database;

  /** Lets the origin read our answer (set only once the origin is known to be allowed). */
  const allowOrigin = (reply: FastifyReply, origin: string) =>
    reply
      .header("access-control-allow-origin", origin)
      .header("access-control-expose-headers", "retry-after")
      .header("vary", "origin");

  // Browsers send the widget's multipart POST without a preflight (a "simple" request); this answers
  // any that ask anyway, for origins some project allows (the key travels in the body, not here).
  app.options(
    INTAKE,
    route({
      summary: "CORS preflight of the widget's report intake",
      action: "public",
      // A script may send a report with a person's API token too, as before callers were kinds.
      accepts: ["widget-key", "token"],
      response: "not-json", // 204 No Content
    }),
    async (request, reply) => {
      const origin = normalizeOrigin(request.headers.origin ?? "");
      const [allowed] = origin
        ? await db
            .select({ projectId: widgetSettings.projectId })
            .from(widgetSettings)
            .where(sql`${origin} = any(${widgetSettings.allowedOrigins})`)
            .limit(1)
        : [];
      if (!origin || !allowed)
        throw new ForbiddenError(WIDGET_MESSAGES.originNotAllowed, "origin-not-allowed");
      return allowOrigin(reply, origin)
        .header("access-control-allow-methods", "POST")
        .header("access-control-allow-headers", "content-type")
        .header("access-control-max-age", "600")
        .status(204)
        .send();
    },
  );

  app.post(
    INTAKE,
    route({
      summary: "Send a bug report from the widget (multipart: report, screenshot, replay)",
      action: "public",
      response: dataAnswer(widgetReportAnswerSchema),
      // A script may send a report with a person's API token too, as before callers were kinds.
      accepts: ["widget-key", "token"],
    }),
    async (request, reply) => {
      if (!request.isMultipart())
        throw new BadRequestError("Send the report as multipart/form-data.", "expected-multipart");
      if (Number(request.headers["content-length"] ?? 0) > MAX_BODY) throw tooLarge("report", MAX_BODY);

      let received: Awaited<ReturnType<typeof checkReport>> | null = null;
      let screenshot: Buffer | null = null;
      let replay: Buffer | null = null;
      try {
        const parts = request.parts({
          limits: {
            fields: 1,
            files: 2,
            parts: 3,
            fieldSize: WIDGET_LIMITS.reportBytes,
            fileSize: WIDGET_LIMITS.screenshotBytes,
          },
        });
        for await (const part of parts) {
          if (part.type === "field") {
            if (part.fieldname !== "report" || received)
              throw new BadRequestError("Unexpected field: only `report` is read.", "bad-multipart");
            if (part.valueTruncated) throw tooLarge("report", WIDGET_LIMITS.reportBytes);
            received = await checkReport(request, reply, String(part.value));
            continue;
          }
          if (!received)
            throw new BadRequestError("Send the `report` field before the files.", "bad-multipart");
          const bytes = await part.toBuffer();
          if (part.file.truncated) throw tooLarge(part.fieldname, WIDGET_LIMITS.screenshotBytes);
          if (part.fieldname === "screenshot" && !screenshot) screenshot = bytes;
          else if (part.fieldname === "replay" && !replay) replay = bytes;
          else throw new BadRequestError("Unexpected file: only `screenshot` and `replay`.", "bad-multipart");
        }
      } catch (error) {
        throw multipartError(error);
      }
      if (!received) throw new BadRequestError("The `report` field is missing.", "bad-multipart");
      const { input, project } = received;

      const png = screenshot ? await screenshotPng(screenshot) : null;
      const events = replay ? replayJson(replay) : null;

      // Content-addressed: the same bytes sent twice are one file.
      const stored: string[] = [];
      const store = async (bytes: Buffer, ext: string) => {
        const sha = createHash("sha256").update(bytes).digest("hex");
        const key = `tickets/${project.id}/${sha}.${ext}`;
        await storage.putContentAddressed(key, bytes, sha);
        stored.push(key);
        return { key, bytes: bytes.length };
      };
      try {
        const ticket = await createTicket(ctx, {
          projectId: project.id,
          listId: null,
          title: input.title || titleFromNote(input.note),
          firstEntry: input.note,
          reporter: { name: input.reporter.name, email: input.reporter.email },
          report: input.report,
          screenshot: png ? await store(png, "png") : null,
          replay: events ? await store(events, "replay.json") : null,
          // The visitor cannot upgrade: past the limit their report is kept for the owner, who is told.
          keepsPastLimit: true,
        });
        // With the token its reporter's recording is uploaded with (widget-video.routes.ts).
        const video = widgetVideoGrant(ctx.config, ticket.id);
        return reply.status(201).send({ data: { id: ticket.id, number: ticket.number, video } });
      } catch (error) {
        await forgetUnused(stored);
        throw error;
      }
    },
  );

  /** The report field: its key, the Origin, the key's rate, then its shape. */
  async function checkReport(request: FastifyRequest, reply: FastifyReply, text: string) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new BadRequestError("The report is not JSON.", "validation");
    }
    const key = (json as { key?: unknown } | null)?.key;
    const found = typeof key === "string" && key.length <= 64 ? await widgetByKey(db, key) : null;
    if (!found) throw new NotFoundError(WIDGET_MESSAGES.unknownKey, "widget-key-unknown");
    const origin = normalizeOrigin(request.headers.origin ?? "");
    if (!origin || !found.settings.allowedOrigins.includes(origin))
      throw new ForbiddenError(WIDGET_MESSAGES.originNotAllowed, "origin-not-allowed");
    allowOrigin(reply, origin);
    // An expired project is read-only (SPEC §4) and archived ones take nothing new either.
    if (found.isExpired || found.project.isArchived)
      throw new ForbiddenError(WIDGET_MESSAGES.expired, "project-expired");
    const retryAfter = await countReport(found.settings.key);
    if (retryAfter !== null) {
      reply.header("retry-after", String(retryAfter));
      throw new TooManyRequestsError(`Too many reports. Try again in ${retryAfter} s.`);
    }
    // A ZodError is answered 400 with the issues by the error handler.
    return { input: widgetReportSchema.parse(json), project: found.project };
  }

  /** A fixed window per key in the shared `rate_limits` table; the seconds to wait, or null when allowed. */
  async function countReport(key: string): Promise<number | null> {
    const { current, ttl } = await countHit(executeSql, `widget:${key}`, WINDOW_MS);
    if (current <= WIDGET_LIMITS.reportsPerMinute) return null;
    return Math.max(1, Math.ceil(ttl / 1000));
  }

  /** Files stored for a ticket that was then refused (the plan's limit), unless some row holds them. */
  async function forgetUnused(keys: string[]) {
    const held = await storedKeysAmong(db, keys);
    for (const key of keys) if (!held.has(key)) await storage.delete(key).catch(() => undefined);
  }
}

/** A PNG or JPEG, recognised by its bytes, re-encoded as PNG (nothing is served as it was sent). */
async function screenshotPng(bytes: Buffer): Promise<Buffer> {
  const image = await detectImage(bytes);
  if (!image || (image.format !== "png" && image.format !== "jpeg"))
    throw new BadRequestError("The screenshot must be a PNG or JPEG image.", "invalid-image");
  try {
    return await sharp(bytes, { limitInputPixels: 100_000_000 }).png().toBuffer();
  } catch {
    throw new BadRequestError("The screenshot must be a PNG or JPEG image.", "invalid-image");
  }
}

/** rrweb events: a JSON array of objects with a numeric type and timestamp, at most 2 MB; stored re-serialized. */
function replayJson(bytes: Buffer): Buffer {
  if (bytes.length > WIDGET_LIMITS.replayBytes) throw tooLarge("replay", WIDGET_LIMITS.replayBytes);
  let events: unknown;
  try {
    events = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new BadRequestError("The replay is not JSON.", "invalid-replay");
  }
  const isEvent = (event: unknown) =>
    typeof event === "object" &&
    event !== null &&
    typeof (event as { type?: unknown }).type === "number" &&
    typeof (event as { timestamp?: unknown }).timestamp === "number";
  if (!Array.isArray(events) || events.length === 0 || !events.every(isEvent))
    throw new BadRequestError("The replay must be a list of recorded events.", "invalid-replay");
  return Buffer.from(JSON.stringify(events));
}

/** The multipart parser's limits and errors as our statuses: sizes 413, the rest 400. */
function multipartError(error: unknown): unknown {
  if (error instanceof HttpError || error instanceof ZodError) return error;
  const code = (error as { code?: string }).code;
  if (
    code === "FST_REQ_FILE_TOO_LARGE" ||
    code === "FST_PARTS_LIMIT" ||
    code === "FST_FILES_LIMIT" ||
    code === "FST_FIELDS_LIMIT"
  )
    return code === "FST_REQ_FILE_TOO_LARGE"
      ? tooLarge("file", WIDGET_LIMITS.screenshotBytes)
      : new BadRequestError("Send one report, one screenshot and at most one replay.", "bad-multipart");
  return new BadRequestError(
    "The report could not be read: send it as multipart/form-data.",
    "bad-multipart",
  );
}
