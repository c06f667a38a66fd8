/**
 * Resumable video uploads: the tus protocol (@tus/server) on the store the app's files use — a folder beside
 * DATA_DIR/files, or the S3 bucket under `video-uploads/` (@tus/s3-store). An upload is named by the server
 * `{projectId}.{userId}.{random}`, so who may continue it is read from its id; it stays here until a
 * comment, a reply or a ticket entry names it (then the video job takes it into the record of stored files and removes it)
 * or until it expires (abandoned uploads are collected every hour, and once at start).
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { MAX_VIDEO_UPLOAD_BYTES, VIDEO_UPLOAD_ID } from "@redline/shared";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import { type DataStore, Server } from "@tus/server";
import type { AppConfig } from "../../env.ts";

/**
 * Who is uploading and where, told by the route (after it authorized the request) to the tus server's
 * naming: `{projectId}.{userId}`, and the route's path the upload continues under.
 */
const uploaders = new WeakMap<IncomingMessage, { uploader: string; base: string }>();

/** The route's word on who starts this upload (`{projectId}.{userId}`) and under which path (`base`). */
export function setUploader(request: IncomingMessage, uploader: string, base: string): void {
  uploaders.set(request, { uploader, base });
}

/** The Node request under the tus server's web Request. */
const nodeRequest = (req: Request) =>
  (req as unknown as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;

/** An upload left unfinished or never posted for this long is collected. */
const EXPIRES_MS = 24 * 3_600_000;

export interface VideoUploads {
  tus: Server;
  /** The finished upload's size, or null when there is no such upload or it is not finished. */
  finishedSize(id: string): Promise<number | null>;
  /** Copies the upload's bytes into `file`. */
  copyTo(id: string, file: string): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * Removes uploads older than the expiry that are unfinished, or finished but held by no entry
   * (`isHeld`: an entry waiting for its video job names it); returns how many.
   */
  collect(isHeld: (id: string) => Promise<boolean>): Promise<number>;
}

const GUEST_UPLOADER = "guest-";

/**
 * The uploader a guest of a project's public link uploads as: their identity (what their browser sends to
 * name them, `x-redline-guest`) hashed, so the upload's id names no one and the same guest may post it.
 */
export function guestUploader(identity: string): string {
  return GUEST_UPLOADER + createHash("sha256").update(identity).digest("hex").slice(0, 20);
}

/** Who an upload belongs to, read from its id (`userId` is a member's id or a `guestUploader`). */
export function uploadOwner(id: string): { projectId: string; userId: string } | null {
  if (!VIDEO_UPLOAD_ID.test(id)) return null;
  const [projectId, userId] = id.split(".");
  return { projectId: projectId!, userId: userId! };
}

export function createVideoUploads(
  config: Pick<AppConfig, "s3" | "filesDir">,
  options: { expiresMs?: number } = {},
): VideoUploads {
  const expirationPeriodInMilliseconds = options.expiresMs ?? EXPIRES_MS;
  const store: DataStore = config.s3
    ? new S3Store({
        expirationPeriodInMilliseconds,
        partSize: 8 * 1024 * 1024,
        s3ClientConfig: {
          bucket: config.s3.bucket,
          region: config.s3.region,
          endpoint: config.s3.endpoint,
          forcePathStyle: config.s3.forcePathStyle,
          credentials: config.s3.credentials,
        },
      })
    : new FileStore({
        directory: path.join(path.dirname(config.filesDir), "video-uploads"),
        expirationPeriodInMilliseconds,
      });
  const tus = new Server({
    path: "/api/projects/videos",
    datastore: store,
    maxSize: MAX_VIDEO_UPLOAD_BYTES,
    respectForwardedHeaders: false,
    // An upload continues under the route that started it: its project's (/api/projects/{projectId}/videos),
    // a ticket's (/api/tickets/{ticketId}/videos), the public link's or the widget's.
    generateUrl: (req, { id }) => {
      const node = nodeRequest(req);
      const base = node && uploaders.get(node)?.base;
      if (base) return `${base}/${id}`;
      const owner = uploadOwner(id);
      return `/api/${owner?.userId.startsWith(GUEST_UPLOADER) ? "share" : "projects"}/${owner?.projectId}/videos/${id}`;
    },
    getFileIdFromRequest: (_req, lastPath) => lastPath,
    namingFunction: (req) => {
      const node = nodeRequest(req);
      const uploader = node && uploaders.get(node)?.uploader;
      if (!uploader) throw { status_code: 403, body: "Sign in to upload a video.\n" };
      return `${uploader}.${randomBytes(16).toString("hex")}`;
    },
  });
  const finishedSize = async (id: string) => {
    try {
      const upload = await store.getUpload(id);
      return upload.size !== undefined && upload.offset === upload.size ? upload.size : null;
    } catch {
      return null;
    }
  };
  return {
    tus,
    finishedSize,
    async copyTo(id, file) {
      const source = await (store as FileStore).read(id);
      await pipeline(source, createWriteStream(file));
    },
    async remove(id) {
      await store.remove(id).catch(() => undefined);
    },
    async collect(isHeld) {
      // The S3 store expires its unfinished (multipart) uploads; finished ones are left to the bucket's rule.
      if (!(store instanceof FileStore) || !store.configstore.list)
        return store.deleteExpired().catch(() => 0);
      // The file store's own expiry is not used: its info keeps the offset it had at creation, so it would
      // take a finished upload for an unfinished one and remove it even while an entry waits on it.
      let removed = 0;
      for (const id of await store.configstore.list()) {
        const info = await store.configstore.get(id).catch(() => undefined);
        const created = info?.creation_date ? new Date(info.creation_date).getTime() : Date.now();
        if (Date.now() - created < expirationPeriodInMilliseconds || (await isHeld(id))) continue;
        await store.remove(id).catch(() => undefined);
        removed++;
      }
      return removed;
    },
  };
}
