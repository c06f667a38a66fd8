/**
 * The one way a bounded text box treats its limit (issue #36): pasted or typed text is never cut (no
 * `maxLength`, which truncates a paste silently); from 90 % of the limit the box shows "n / max" beside
 * it, over the limit it says how much is allowed and the form's Submit stays disabled. The count is the
 * server's (packages/shared contracts trim, then count characters as code points), so what the box calls
 * fine is what the server takes (textLength). Limits come from the shared contracts, never copied numbers.
 */
import { textLength } from "@redline/shared";
import { useId } from "react";
import "./text-limit.css";

/** From this share of the limit on, the count shows. */
export const NEAR_LIMIT = 0.9;

export interface TextLimit {
  /** Characters the server will count (textLength of packages/shared). */
  count: number;
  max: number;
  isNear: boolean;
  isOver: boolean;
  /** "The message can be at most 4,000 characters.", or null within the limit. */
  message: string | null;
  /** "4,512 / 5,000" from 90 % of the limit on, else null (a Field shows it as its hint). */
  counter: string | null;
  /** Props for the text box: describes it by the note while the note shows; invalid while over. */
  control: { "aria-describedby": string | undefined; "aria-invalid": true | undefined };
  noteId: string;
  /** aria-describedby for a box that has its own error too: that error's id and the note's. */
  describedBy(errorId: string | null | undefined): string | undefined;
}

const number = (value: number) => value.toLocaleString("en-US");

/** How close `text` is to `max`; `name` words the message ("The feedback can be at most …"). */
export function useTextLimit(text: string, max: number, name = "text"): TextLimit {
  const noteId = useId();
  const count = textLength(text);
  const isOver = count > max;
  const isNear = count >= Math.floor(max * NEAR_LIMIT);
  return {
    count,
    max,
    isNear,
    isOver,
    message: isOver ? `The ${name} can be at most ${number(max)} characters.` : null,
    counter: isNear ? `${number(count)} / ${number(max)}` : null,
    control: { "aria-describedby": isNear ? noteId : undefined, "aria-invalid": isOver ? true : undefined },
    noteId,
    describedBy: (errorId) => [errorId, isNear ? noteId : null].filter(Boolean).join(" ") || undefined,
  };
}

/** For a bare text box: "4,512 / 5,000" near the limit; over it, in red with what is allowed. Nothing
 *  below 90 %. A labelled Field takes `counter` as its hint and `message` as its error instead. */
export function TextLimitNote({ limit, className }: { limit: TextLimit; className?: string }) {
  if (!limit.counter) return null;
  return (
    <p
      id={limit.noteId}
      className={`text-limit${limit.isOver ? " text-limit--over" : ""}${className ? ` ${className}` : ""}`}
    >
      {limit.message ? <span role="alert">{limit.message}</span> : null}
      <span className="text-limit__count">{limit.counter}</span>
    </p>
  );
}
