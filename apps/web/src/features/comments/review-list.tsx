/**
 * "Check these pins": copied comments whose element changed (needs review: step through the candidate
 * elements, then "Keep here") or is gone (orphaned: a crop of the old version's screenshot), each with
 * "Move pin". Shown first in the activity panel.
 */
import type { AnchoredStatus, Comment, MentionPerson } from "@redline/shared";
import { MentionText } from "../../components/discussion/entry.tsx";
import { type CandidateChoice, CandidatePicker } from "./candidate-picker.tsx";
import { OldCrop } from "./old-crop.tsx";

export function ReviewList({
  comments,
  statusOf,
  numberOf,
  people,
  canFix,
  showOldCrop,
  candidateCount,
  candidate,
  onSelect,
  onShowCandidate,
  onKeep,
  onMove,
}: {
  comments: Comment[];
  statusOf(comment: Comment): AnchoredStatus | null;
  numberOf(comment: Comment): number;
  people: MentionPerson[] | null;
  /** The version is a snapshot, where pins can be kept or moved (each comment says whether this reader may). */
  canFix: boolean;
  showOldCrop: boolean;
  candidateCount(id: string): number;
  candidate(id: string): CandidateChoice | undefined;
  onSelect(id: string): void;
  onShowCandidate(id: string, index: number): void;
  onKeep(comment: Comment, choice: CandidateChoice | undefined): void;
  onMove(id: string): void;
}) {
  return (
    <section className="review-list" aria-labelledby="review-list-title">
      <h3 id="review-list-title" className="review-list__title">
        Check these pins
      </h3>
      <p className="activity__hint">
        These comments were copied from the previous version and their element changed or is gone.
      </p>
      <ul className="comment-list">
        {comments.map((comment) => {
          const status = statusOf(comment);
          return (
            <li key={comment.id} className="comment-card comment-card--review">
              <button type="button" className="comment-card__open" onClick={() => onSelect(comment.id)}>
                <span className="comment-card__number">{numberOf(comment)}</span>
                <span className="comment-card__excerpt">
                  <MentionText text={comment.thread[0]?.comment ?? ""} people={people} />
                </span>
              </button>
              <span className={status === "orphaned" ? "tag tag--danger" : "tag tag--warning"}>
                {status === "orphaned" ? "Element not found" : "Needs review"}
              </span>
              {status === "orphaned" && comment.anchor && showOldCrop ? <OldCrop comment={comment} /> : null}
              {canFix && comment.abilities.move ? (
                <div className="comment-card__actions">
                  {status === "needs-review" ? (
                    <CandidatePicker
                      count={candidateCount(comment.id)}
                      index={candidate(comment.id)?.index ?? 0}
                      onShow={(index) => onShowCandidate(comment.id, index)}
                      onKeep={() => onKeep(comment, candidate(comment.id))}
                    />
                  ) : null}
                  <button type="button" className="btn" onClick={() => onMove(comment.id)}>
                    Move pin
                  </button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
