/**
 * Inspect mode's writes (lib/operations.ts, ADR 0033): save suggested edits (merged per element), hide,
 * show, resolve or reopen one, delete some, and store a replacement image. Each loads the version or the
 * edit, authorizes through inspect.policy.ts, and writes through inspect.service.ts (which records the
 * domain event in its transaction).
 */
import { createHash } from "node:crypto";
import {
  deleteChangesSchema,
  INSPECT_MESSAGES,
  saveChangesSchema,
  updateChangeSchema,
} from "@redline/shared";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/index.ts";
import { assets, inspectChanges } from "../../db/schema/index.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import { detectImage, IMAGE_FORMATS } from "../../lib/images.ts";
import { operation, withParams } from "../../lib/operations.ts";
import { policyActorOf } from "../../lib/policy.ts";
import type { Actor } from "../auth/session.ts";
import { assertRoomToStore } from "../plans/storage.ts";
import { loadProject, loadVersion } from "../project-access/projects.load.ts";
import { authorizeInspect, withInspectAbilities } from "./inspect.policy.ts";
import { deleteChanges, listChanges, saveChanges, updateChange } from "./inspect.service.ts";

const id = z.string().min(1).max(64);
export const versionParams = z.object({ versionId: id });
const changeParams = z.object({ changeId: id });

export async function inspectedVersion(db: Database, actor: Actor, versionId: string) {
  const loaded = await loadVersion(db, actor, versionId);
  return { ...loaded, reader: policyActorOf(actor, loaded.access) };
}

export const saveInspectChanges = operation(
  "inspect.create",
  withParams(versionParams, saveChangesSchema),
  async (ctx, actor: Actor, { versionId, changes }) => {
    const { db } = ctx.database;
    const { version, reader } = await inspectedVersion(db, actor, versionId);
    authorizeInspect(reader, "inspect.create");
    await saveChanges(db, version, actor.user.id, changes, ctx.config.plansEnabled);
    const saved = await listChanges(db, version);
    return {
      data: saved.map((change) => withInspectAbilities(reader, change)),
      message: INSPECT_MESSAGES.saved,
    };
  },
);

export const updateInspectChange = operation(
  "inspect.update",
  withParams(changeParams, updateChangeSchema),
  async (ctx, actor: Actor, { changeId, ...input }) => {
    const { db } = ctx.database;
    const [change] = await db.select().from(inspectChanges).where(eq(inspectChanges.id, changeId));
    if (!change) throw new NotFoundError("Suggestion not found.", "change-not-found");
    const { access } = await loadProject(db, actor, change.projectId);
    const reader = policyActorOf(actor, access);
    if (input.isResolved !== undefined || input.isHidden === undefined)
      authorizeInspect(reader, "inspect.resolve");
    if (input.isHidden !== undefined) authorizeInspect(reader, "inspect.hide");
    return { data: withInspectAbilities(reader, await updateChange(db, change, actor.user.id, input)) };
  },
);

export const deleteInspectChanges = operation(
  "inspect.delete",
  withParams(versionParams, deleteChangesSchema),
  async (ctx, actor: Actor, { versionId, ids }) => {
    const { db } = ctx.database;
    const { version, reader } = await inspectedVersion(db, actor, versionId);
    authorizeInspect(reader, "inspect.delete");
    const deleted = await deleteChanges(db, version, ids);
    return { data: { deleted }, message: INSPECT_MESSAGES.deleted };
  },
);

/**
 * A replacement image (images only, recognised by its bytes), stored as a content-addressed asset so the
 * snapshot (whose CSP allows only its own origin's assets) can show it at `path`.
 */
export const uploadReplacementImage = operation(
  "inspect.image",
  versionParams.extend({ bytes: z.instanceof(Buffer) }),
  async (ctx, actor: Actor, { versionId, bytes }) => {
    const { db } = ctx.database;
    const { project, reader } = await inspectedVersion(db, actor, versionId);
    authorizeInspect(reader, "inspect.create");
    const image = await detectImage(bytes);
    if (!image) throw new BadRequestError("Upload a JPEG, PNG, WebP or GIF image.", "unsupported-file");
    const sha = createHash("sha256").update(bytes).digest("hex");
    const [known] = await db.select().from(assets).where(eq(assets.sha256, sha));
    const ext = known?.ext ?? (image.format === "jpeg" ? "jpg" : image.format);
    const key = `assets/${sha}.${ext}`;
    await assertRoomToStore(db, project, { key, bytes: bytes.length }, ctx.config.plansEnabled);
    await ctx.storage.putContentAddressed(key, bytes, sha);
    if (!known) {
      await db
        .insert(assets)
        .values({ sha256: sha, contentType: IMAGE_FORMATS[image.format], ext, size: bytes.length })
        .onConflictDoNothing();
    }
    return {
      data: { path: `/a/${sha}.${ext}`, imageDimensions: { width: image.width, height: image.height } },
    };
  },
);
