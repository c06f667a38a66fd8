/**
 * The comments of a version as cards in the activity panel: number, author, time, excerpt, state.
 *
 * A long list (VIRTUALIZE_FROM on) mounts only the cards in and near the panel's view (@tanstack/react-virtual,
 * as the board's lists): a version with 10,000 comments opens as fast as one with ten. The list's parent
 * (the panel's body) scrolls it, with "Check these pins" above the list. Arrow keys, Home and End move between cards
 * (Tab too); the focused card stays mounted when scrolled away; the card last opened (`focusId`) is
 * scrolled to and focused when the list comes back.
 */
import type { Comment, MentionPerson } from "@redline/shared";
import { defaultRangeExtractor, type Range, useVirtualizer } from "@tanstack/react-virtual";
import {
  type FocusEvent,
  type KeyboardEvent,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { MentionText } from "../../components/discussion/entry.tsx";
import { timeAgo } from "../../lib/time-ago.ts";

/** Lists this long or longer mount only the cards near the view. */
export const VIRTUALIZE_FROM = 50;
const ESTIMATED_CARD = 88;
const estimateSize = () => ESTIMATED_CARD;

export function CommentList({
  comments,
  numberOf,
  people,
  onSelect,
  focusId = null,
}: {
  comments: Comment[];
  numberOf(comment: Comment): number;
  people: MentionPerson[] | null;
  onSelect(id: string): void;
  /** The comment last opened: scrolled to and focused when the list is shown again. */
  focusId?: string | null;
}) {
  const list = useRef<HTMLUListElement | null>(null);
  const isLong = comments.length >= VIRTUALIZE_FROM;
  // Where the list starts in the scroller (below "Check these pins"), measured after each render.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    if (!isLong || !list.current) return;
    const top = list.current.offsetTop;
    if (top !== scrollMargin) setScrollMargin(top);
  });
  const [focusedIndex, setFocusedIndex] = useState(-1);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex >= 0 && focusedIndex < range.count && !indexes.includes(focusedIndex))
        indexes.push(focusedIndex);
      return indexes.sort((a, b) => a - b);
    },
    [focusedIndex],
  );
  const getItemKey = useCallback((index: number) => comments[index]?.id ?? index, [comments]);
  const virtualizer = useVirtualizer({
    count: comments.length,
    // The list's own parent: attached before this runs, unlike a ref of an element around this component.
    getScrollElement: () => list.current?.parentElement ?? null,
    estimateSize,
    overscan: 6,
    scrollMargin,
    enabled: isLong,
    rangeExtractor,
    getItemKey,
  });

  // A card to focus once it is mounted (after a key press, or when the list comes back).
  const toFocus = useRef<number | null>(null);
  const focusCard = useCallback(
    (index: number) => {
      toFocus.current = index;
      setFocusedIndex(index);
      if (isLong) virtualizer.scrollToIndex(index, { align: "auto" });
    },
    [isLong, virtualizer],
  );
  useLayoutEffect(() => {
    const index = toFocus.current;
    if (index === null) return;
    const card = list.current?.querySelector<HTMLButtonElement>(`li[data-index="${index}"] button`);
    if (!card) return;
    toFocus.current = null;
    card.focus({ preventScroll: isLong });
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the list is shown
  useEffect(() => {
    const index = focusId ? comments.findIndex((comment) => comment.id === focusId) : -1;
    if (index < 0) return;
    if (isLong) virtualizer.scrollToIndex(index, { align: "center" });
    toFocus.current = index;
    setFocusedIndex(index);
  }, []);

  const handleKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>("li[data-index]");
    if (!row || comments.length === 0) return;
    const index = Number(row.dataset.index);
    const last = comments.length - 1;
    const next =
      event.key === "ArrowDown"
        ? Math.min(last, index + 1)
        : event.key === "ArrowUp"
          ? Math.max(0, index - 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    focusCard(next);
  };
  const handleFocus = (event: FocusEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>("li[data-index]");
    if (row) setFocusedIndex(Number(row.dataset.index));
  };

  if (!isLong)
    return (
      <ul
        ref={list}
        className="comment-list"
        aria-label="Comments"
        onKeyDown={handleKeyDown}
        onFocus={handleFocus}
      >
        {comments.map((comment, index) => (
          <li key={comment.id} className="comment-card" data-index={index}>
            <CommentCard comment={comment} number={numberOf(comment)} people={people} onSelect={onSelect} />
          </li>
        ))}
      </ul>
    );
  return (
    <ul
      ref={list}
      className="comment-list comment-list--virtual"
      aria-label="Comments"
      style={{ height: virtualizer.getTotalSize() }}
      onKeyDown={handleKeyDown}
      onFocus={handleFocus}
    >
      {virtualizer.getVirtualItems().map((item) => {
        const comment = comments[item.index]!;
        return (
          <li
            key={comment.id}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className="comment-card comment-list__row"
            style={{ top: item.start - scrollMargin }}
            // Only some cards are in the DOM: say where this one is in the whole list.
            aria-setsize={comments.length}
            aria-posinset={item.index + 1}
          >
            <CommentCard comment={comment} number={numberOf(comment)} people={people} onSelect={onSelect} />
          </li>
        );
      })}
    </ul>
  );
}

/** One card; the same comment object draws nothing new (the list re-renders as it scrolls). */
const CommentCard = memo(function CommentCard({
  comment,
  number,
  people,
  onSelect,
}: {
  comment: Comment;
  number: number;
  people: MentionPerson[] | null;
  onSelect(id: string): void;
}) {
  const first = comment.thread[0];
  const replies = comment.thread.length - 1;
  return (
    <button
      type="button"
      className="comment-card__open"
      aria-label={`Comment ${number} by ${first?.author.displayName ?? ""}`}
      onClick={() => onSelect(comment.id)}
    >
      <span className="comment-card__number">{number}</span>
      <span className="comment-card__main">
        <span className="comment-card__meta">
          <span className="comment-card__author">{first?.author.displayName}</span>
          {first ? <time dateTime={first.createdAt}>{timeAgo(first.createdAt)}</time> : null}
        </span>
        <span className="comment-card__excerpt">
          <MentionText text={first?.comment ?? ""} people={people} />
        </span>
        <span className="comment-card__meta">
          {replies > 0 ? <span>{replies === 1 ? "1 reply" : `${replies} replies`}</span> : null}
          {comment.isResolved ? <span className="tag tag--success">Resolved</span> : null}
          {comment.deviceSize === "mobile" ? <span className="tag">Mobile</span> : null}
          {comment.pdfPage ? <span className="tag">Page {comment.pdfPage}</span> : null}
        </span>
      </span>
    </button>
  );
});
