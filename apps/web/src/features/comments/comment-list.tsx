/** The comments of a version as cards in the activity panel: number, author, time, excerpt, state. */
import type { Comment, MentionPerson } from "@redline/shared";
import { timeAgo } from "../../lib/time-ago.ts";
import { CommentText } from "./comment-thread.tsx";

export function CommentList({
  comments,
  numberOf,
  people,
  onSelect,
}: {
  comments: Comment[];
  numberOf(comment: Comment): number;
  people: MentionPerson[] | null;
  onSelect(id: string): void;
}) {
  return (
    <ul className="comment-list" aria-label="Comments">
      {comments.map((comment) => {
        const first = comment.thread[0];
        const replies = comment.thread.length - 1;
        return (
          <li key={comment.id} className="comment-card">
            <button
              type="button"
              className="comment-card__open"
              aria-label={`Comment ${numberOf(comment)} by ${first?.author.displayName ?? ""}`}
              onClick={() => onSelect(comment.id)}
            >
              <span className="comment-card__number">{numberOf(comment)}</span>
              <span className="comment-card__main">
                <span className="comment-card__meta">
                  <span className="comment-card__author">{first?.author.displayName}</span>
                  {first ? <time dateTime={first.createdAt}>{timeAgo(first.createdAt)}</time> : null}
                </span>
                <span className="comment-card__excerpt">
                  <CommentText text={first?.comment ?? ""} people={people} />
                </span>
                <span className="comment-card__meta">
                  {replies > 0 ? <span>{replies === 1 ? "1 reply" : `${replies} replies`}</span> : null}
                  {comment.isResolved ? <span className="tag tag--success">Resolved</span> : null}
                  {comment.deviceSize === "mobile" ? <span className="tag">Mobile</span> : null}
                  {comment.pdfPage ? <span className="tag">Page {comment.pdfPage}</span> : null}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
