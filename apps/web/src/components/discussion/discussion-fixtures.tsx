/** Entries and a composer for the discussion components' tests. */
import { Composer, type ComposerProps } from "./composer.tsx";
import type { DiscussionEntry } from "./entry.tsx";

export const entry = (
  id: string,
  text: string,
  abilities: DiscussionEntry["abilities"] = { edit: false, delete: true },
): DiscussionEntry => ({
  id,
  createdAt: "2026-11-24T10:00:00.000Z",
  editedAt: null,
  author: { uid: null, displayName: `Author of ${text}`, photoURL: null, isGuest: false },
  comment: text,
  attachments: [],
  hasVideo: false,
  videoURL: null,
  videoPosterURL: null,
  videoDuration: null,
  videoStatus: null,
  abilities,
});

/** A subject's composer: the discussion composer with a limit. */
export const Editor = (props: ComposerProps) => <Composer {...props} maxLength={500} noun="message" />;
