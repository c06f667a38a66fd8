/**
 * Copied comments are re-anchored by the overlay in every reader's tab; the outcome is saved once, by the
 * first reader who may change the comment (PATCH anchorStatus), and never again for that comment.
 */
import type { AnchoredStatus, Comment } from "@redline/shared";
import { useEffect, useRef } from "react";

export function useSaveAnchorStatus({
  comments,
  anchored,
  round,
  save,
}: {
  comments: Comment[];
  /** The overlay's latest report: comment id → how it anchored. */
  anchored: ReadonlyMap<string, AnchoredStatus>;
  /** Increases with each report; the save runs once per report. */
  round: number;
  save(commentId: string, status: AnchoredStatus): void;
}): void {
  const saved = useRef(new Set<string>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per anchoring round
  useEffect(() => {
    for (const comment of comments) {
      // Saving the outcome moves the pin's record: only a reader the server lets move it saves.
      if (!comment.abilities.move) continue;
      const status = anchored.get(comment.id);
      if (!status || comment.anchorStatus !== null || !comment.copiedFromVersion) continue;
      if (saved.current.has(comment.id)) continue;
      saved.current.add(comment.id);
      save(comment.id, status);
    }
  }, [round]);
}
