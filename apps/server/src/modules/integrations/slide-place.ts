/**
 * Where a slide's comment is, as an outside service is told (issue #32): the slide's number in the deck as
 * it now is, and the illustration project's title — for a Slack message and a tracker's card.
 */
import { orderedSlides } from "@redline/shared";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/index.ts";
import { projects } from "../../db/schema/index.ts";
import { readDeckJson } from "../slides/slides.store.ts";

export async function slidePlaceOf(
  db: Pick<Database, "select" | "execute">,
  projectId: string,
  slideId: string,
): Promise<{ projectTitle: string; slideNumber: number | null }> {
  const [[project], deck] = await Promise.all([
    db.select({ title: projects.title }).from(projects).where(eq(projects.id, projectId)),
    readDeckJson(db, projectId),
  ]);
  const index = orderedSlides(deck).findIndex((slide) => slide.id === slideId);
  return { projectTitle: project?.title ?? "", slideNumber: index >= 0 ? index + 1 : null };
}
