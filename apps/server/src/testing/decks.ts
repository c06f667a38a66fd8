/** A deck of blank slides for tests that need slides to pin comments on (issue #32). */
import * as Y from "yjs";
import type { ApiClient } from "./http-client.ts";

/** Adds blank slides of these ids, in this order, to an illustration project's deck (as its editor). */
export async function addBlankSlides(
  client: ApiClient,
  projectId: string,
  slideIds: string[],
): Promise<void> {
  const doc = new Y.Doc();
  const { body } = await client.get(`/api/projects/${projectId}/deck`);
  Y.applyUpdate(doc, new Uint8Array(Buffer.from(body.data.update, "base64")));
  const before = Y.encodeStateVector(doc);
  const slides = doc.getMap<Y.Map<unknown>>("slides");
  slideIds.forEach((id, index) => {
    const slide = new Y.Map<unknown>();
    for (const [key, value] of Object.entries({ id, position: index + 1, createdAt: 1, notes: "" }))
      slide.set(key, value);
    slide.set("objects", new Y.Map());
    slides.set(id, slide);
  });
  const update = Buffer.from(Y.encodeStateAsUpdate(doc, before)).toString("base64");
  const sent = await client.post(`/api/projects/${projectId}/deck/updates`, { update });
  if (sent.status !== 200) throw new Error(`deck update refused: ${JSON.stringify(sent.body)}`);
}
