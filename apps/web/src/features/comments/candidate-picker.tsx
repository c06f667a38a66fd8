/**
 * A copied comment whose element could not be told apart for certain ("needs review"): its pin sits
 * on the best guess, and the reviewer can step through the other plausible elements the overlay
 * found (`pin:candidate`) before keeping the pin where it is. Keeping the best guess only confirms
 * it; keeping another candidate saves that element's anchor.
 */
import type { FrameAnchor } from "@redline/shared";
import { ChevronLeft, ChevronRight } from "lucide-react";

export interface CandidateChoice {
  index: number;
  anchor: FrameAnchor;
  dotPosition: { x: number; y: number };
}

export function CandidatePicker({
  count,
  index,
  onShow,
  onKeep,
}: {
  /** Candidates the overlay offers (0 or 1: only "Keep here"). */
  count: number;
  /** The candidate the pin is on now. */
  index: number;
  onShow: (index: number) => void;
  onKeep: () => void;
}) {
  return (
    <>
      {count > 1 ? (
        <span className="candidate-picker">
          <button
            type="button"
            className="icon-btn"
            aria-label="Previous candidate"
            disabled={index === 0}
            onClick={() => onShow(index - 1)}
          >
            <ChevronLeft size={16} aria-hidden />
          </button>
          <span aria-live="polite">
            Candidate {index + 1} of {count}
          </span>
          <button
            type="button"
            className="icon-btn"
            aria-label="Next candidate"
            disabled={index >= count - 1}
            onClick={() => onShow(index + 1)}
          >
            <ChevronRight size={16} aria-hidden />
          </button>
        </span>
      ) : null}
      <button type="button" className="btn" onClick={onKeep}>
        Keep here
      </button>
    </>
  );
}
