import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { pages } from "../../db/schema/index.ts";
import { toJpeg } from "../../lib/images.ts";

/** A page's card picture: 500×350 JPEG of the top of its latest image or screenshot (SPEC §9). */
export async function setPageThumbnail(ctx: AppContext, pageId: string, image: Buffer): Promise<void> {
  const { jpeg, hash } = await toJpeg(image, "thumbnail");
  const key = `thumbnails/pages/${pageId}/${hash}.jpg`;
  await ctx.storage.put(key, jpeg);
  await ctx.database.db.update(pages).set({ thumbnailKey: key }).where(eq(pages.id, pageId));
}
