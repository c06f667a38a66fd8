/**
 * The demo project behind /share/demo (SPEC §2): seeded once, idempotently (several processes may start
 * at once), owned by a system account that cannot sign in, public with comments on. Its one page is an
 * image of a small sample site, drawn here from SVG so nothing is fetched.
 */
import { createHash } from "node:crypto";
import { normalizeSharing } from "@redline/shared";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import type { AppContext } from "../../context.ts";
import { pages, projects, users, versions } from "../../db/schema/index.ts";
import { setPageThumbnail } from "../pages/thumbnails.ts";

export const DEMO_PROJECT_ID = "demo";
const DEMO_OWNER_ID = "redline-demo";

const SAMPLE_SITE = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="900" font-family="DejaVu Sans, sans-serif">
  <rect width="1280" height="900" fill="#ffffff"/>
  <rect width="1280" height="72" fill="#111827"/>
  <text x="48" y="46" font-size="24" fill="#ffffff" font-weight="bold">Acme Cloud</text>
  <text x="860" y="44" font-size="17" fill="#d1d5db">Product    Pricing    Docs    Sign in</text>
  <text x="48" y="210" font-size="56" fill="#111827" font-weight="bold">Ship reviews faster.</text>
  <text x="48" y="270" font-size="22" fill="#4b5563">Pin feedback to the exact element, approve pages, and move on.</text>
  <rect x="48" y="320" width="220" height="56" rx="8" fill="#e5383b"/>
  <text x="86" y="356" font-size="20" fill="#ffffff">Start free trial</text>
  <rect x="700" y="150" width="520" height="300" rx="12" fill="#f3f4f6" stroke="#e5e7eb"/>
  <text x="860" y="310" font-size="22" fill="#9ca3af">Product screenshot</text>
  ${[0, 1, 2]
    .map(
      (
        i,
      ) => `<rect x="${48 + i * 400}" y="540" width="370" height="260" rx="12" fill="#f9fafb" stroke="#e5e7eb"/>
  <text x="${76 + i * 400}" y="600" font-size="24" fill="#111827" font-weight="bold">${["Pins that stay put", "Live for everyone", "Self-hosted"][i]}</text>
  <text x="${76 + i * 400}" y="640" font-size="17" fill="#4b5563">${["Comments follow their element.", "Every reviewer sees changes at once.", "Your server, your data."][i]}</text>`,
    )
    .join("\n")}
</svg>`;

export async function ensureDemoProject(ctx: AppContext): Promise<void> {
  const { db } = ctx.database;
  const [existing] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.id, DEMO_PROJECT_ID));
  if (existing) return;
  const png = await sharp(Buffer.from(SAMPLE_SITE)).png().toBuffer();
  const fileKey = `uploads/${createHash("sha256").update(png).digest("hex")}.png`;
  await ctx.storage.put(fileKey, png);
  const pageId = `${DEMO_PROJECT_ID}-home`;
  const inserted = await db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values({
        id: DEMO_OWNER_ID,
        email: "demo@redline.invalid",
        displayName: "Redline",
        emailVerified: true,
      })
      .onConflictDoNothing();
    const [project] = await tx
      .insert(projects)
      .values({
        id: DEMO_PROJECT_ID,
        title: "Redline demo",
        type: "demo",
        ownerId: DEMO_OWNER_ID,
        sharing: { ...normalizeSharing(true), canComment: true },
      })
      .onConflictDoNothing()
      .returning();
    if (!project) return false;
    await tx.insert(pages).values({
      id: pageId,
      projectId: DEMO_PROJECT_ID,
      url: "image",
      title: "Acme Cloud home",
      isDemo: true,
    });
    await tx.insert(versions).values({
      id: `${DEMO_PROJECT_ID}-home-1`,
      pageId,
      projectId: DEMO_PROJECT_ID,
      number: 1,
      title: "Version 1",
      kind: "image",
      status: "ready",
      fileKey,
      createdBy: DEMO_OWNER_ID,
    });
    return true;
  });
  if (inserted) await setPageThumbnail(ctx, pageId, png);
}
