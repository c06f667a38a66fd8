import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { pages } from "../../db/schema/index.ts";
import { toJpeg } from "../../lib/images.ts";
import { announceChanged } from "../../lib/realtime.ts";
import { removeReplaced } from "../../lib/storage/storage.ts";

/**
 * A page's card picture: 500×350 JPEG of the top of its latest image or screenshot (SPEC §9). The
 * picture it replaces belonged to this page alone and is removed.
 */
export async function setPageThumbnail(ctx: AppContext, pageId: string, image: Buffer): Promise<void> {
  const { jpeg, hash } = await toJpeg(image, "thumbnail");
  const key = `thumbnails/pages/${pageId}/${hash}.jpg`;
  await ctx.storage.put(key, jpeg);
  const replaced = await ctx.database.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ old: pages.thumbnailKey, projectId: pages.projectId })
      .from(pages)
      .where(eq(pages.id, pageId))
      .for("update");
    await tx.update(pages).set({ thumbnailKey: key }).where(eq(pages.id, pageId));
    if (row) await announceChanged(tx, `project:${row.projectId}`);
    return row?.old ?? null;
  });
  await removeReplaced(ctx.storage, replaced, key);
}
