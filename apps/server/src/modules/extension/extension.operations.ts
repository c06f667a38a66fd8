/**
 * The browser extension's writes (lib/operations.ts; ADR 0037): approving it from a signed-in session,
 * the extension taking its credential, signing it out, and adding the page in the user's tab — the
 * serialized document is stored as the version's upload and sanitized by the capture worker (it holds the
 * browser the sanitizer runs in), then served like any snapshot.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  EXTENSION_GRANT_TTL_MS,
  EXTENSION_MESSAGES,
  type ExtensionAdded,
  type ExtensionSession,
  extensionAddPageSchema,
  extensionGrantSchema,
  extensionSessionSchema,
} from "@redline/shared";
import { and, eq, gt } from "drizzle-orm";
import { z } from "zod";
import { apiTokens, pages, sessions, users, verifications } from "../../db/schema/index.ts";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { operation } from "../../lib/operations.ts";
import type { ExtensionPrincipal } from "../../lib/principal.ts";
import { createExtensionCredential } from "../auth/api-tokens.ts";
import type { Actor } from "../auth/session.ts";
import { addPage, addUploadedVersion } from "../pages/add-page.ts";
import { storeUpload } from "../pages/pages.routes.ts";
import { loadProject } from "../project-access/projects.load.ts";
import { authorize } from "../project-access/projects.policy.ts";
import { enqueueCapture } from "../versions/capture-queue.ts";
import { assertOffersExtension } from "./extension.rules.ts";

const grantIdentifier = (challenge: string) => `extension-grant:${challenge}`;
const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** The signed-in person approves the extension that showed them `challenge` (it keeps the verifier). */
export const grantExtension = operation(
  "extension.grant",
  extensionGrantSchema,
  async (ctx, caller: { actor: Actor; sessionId: string }, { challenge }) => {
    await ctx.database.db.insert(verifications).values({
      id: randomUUID(),
      identifier: grantIdentifier(challenge),
      value: JSON.stringify({ userId: caller.actor.user.id, sessionId: caller.sessionId }),
      expiresAt: new Date(Date.now() + EXTENSION_GRANT_TTL_MS),
    });
    return { message: EXTENSION_MESSAGES.approved };
  },
);

/**
 * The extension takes its credential with the verifier behind an approved challenge: once (the approval
 * is deleted as it is read), within five minutes, while the approving session lives.
 */
export const takeExtensionSession = operation(
  "extension.session",
  extensionSessionSchema,
  async (ctx, _caller: null, { verifier }): Promise<{ data: ExtensionSession }> => {
    const { db } = ctx.database;
    const [taken] = await db
      .delete(verifications)
      .where(
        and(
          eq(verifications.identifier, grantIdentifier(challengeOf(verifier))),
          gt(verifications.expiresAt, new Date()),
        ),
      )
      .returning({ value: verifications.value });
    if (!taken) throw new NotFoundError(EXTENSION_MESSAGES.pending, "extension/pending");
    const { userId, sessionId } = JSON.parse(taken.value) as { userId: string; sessionId: string };
    const [row] = await db
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(eq(sessions.id, sessionId), eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())),
      );
    if (!row || row.user.disabledAt || row.user.isDeleted)
      throw new NotFoundError(EXTENSION_MESSAGES.pending, "extension/pending");
    const secret = await createExtensionCredential(db, userId, sessionId);
    return { data: { secret, user: { name: row.user.displayName, email: row.user.email } } };
  },
);

/** The extension signs itself out: its credential is deleted (and refused by every process at once). */
export const signOutExtension = operation(
  "extension.signOut",
  z.object({}),
  async (ctx, principal: ExtensionPrincipal) => {
    await ctx.database.db
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, principal.tokenId), eq(apiTokens.kind, "extension")));
    return { message: EXTENSION_MESSAGES.signedOut };
  },
);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Adds the tab's serialized document as a new page of a project the person may edit (or a new version of
 * one of its pages). Nothing of it is shown before the capture worker has sanitized it.
 */
export const addExtensionPage = operation(
  "extension.addPage",
  extensionAddPageSchema,
  async (ctx, actor: Actor, input): Promise<{ data: ExtensionAdded; message: string }> => {
    const { db } = ctx.database;
    const { project, access, isExpired } = await loadProject(db, actor, input.projectId);
    authorize(access, "pages.create");
    assertOffersExtension({ ...project, isExpired });
    const screenshot = input.screenshot ? Buffer.from(input.screenshot, "base64") : null;
    if (screenshot && !screenshot.subarray(0, 8).equals(PNG_SIGNATURE))
      throw new ForbiddenError("The screenshot must be a PNG image.", "extension/screenshot");
    let page = null;
    if (input.pageId) {
      [page] = await db
        .select()
        .from(pages)
        .where(and(eq(pages.id, input.pageId), eq(pages.projectId, project.id)));
      if (!page) throw new NotFoundError("Page not found.", "page-not-found");
    }
    const file = await storeUpload(ctx, project, { bytes: Buffer.from(input.html, "utf8"), ext: "html" });
    const version = {
      kind: "snapshot" as const,
      status: "queued" as const,
      sourceUrl: input.url,
      width: input.width,
      createdBy: actor.user.id,
      ...file,
    };
    const added = page
      ? { page, version: await addUploadedVersion(db, page, version, ctx.config.plansEnabled) }
      : await addPage(
          db,
          project,
          { url: input.url, title: input.title || input.url, source: "extension", version },
          ctx.config.plansEnabled,
        );
    if (screenshot) await ctx.storage.put(`screenshots/${added.version.id}.png`, screenshot);
    await enqueueCapture(ctx, added.version.id);
    const path = `/project/${project.id}/${added.page.id}/${added.version.id}/comment`;
    return {
      data: { projectId: project.id, pageId: added.page.id, versionId: added.version.id, path },
      message: EXTENSION_MESSAGES.added,
    };
  },
);
