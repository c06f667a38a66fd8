/**
 * Pins on an image or a PDF page: a comment's point is a fraction of the picture, so it stays on the
 * same spot at any size. In comment mode the picture is one big button — a click (or Enter, which
 * pins the centre) places a new comment there.
 */
import type { ReactNode } from "react";

export interface PositionPin {
  id: string;
  number: number;
  x: number;
  y: number;
  isResolved: boolean;
  isSelected: boolean;
}

export function PositionLayer({
  children,
  pins,
  pending,
  label,
  onPick,
  onSelect,
}: {
  children: ReactNode;
  pins: PositionPin[];
  pending: { x: number; y: number } | null;
  /** What the pick button says, e.g. 'Add a comment on page 2'. */
  label: string;
  /** Absent: the picture cannot be commented on (viewers, preview). */
  onPick?: (point: { x: number; y: number }) => void;
  onSelect(id: string): void;
}) {
  return (
    <div className="position-layer">
      {children}
      {onPick ? (
        <button
          type="button"
          className="position-layer__pick"
          aria-label={label}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            // A keyboard press has no pointer position: pin the centre.
            const isPointer = event.detail > 0 && box.width > 0 && box.height > 0;
            onPick({
              x: isPointer ? clamp((event.clientX - box.left) / box.width) : 0.5,
              y: isPointer ? clamp((event.clientY - box.top) / box.height) : 0.5,
            });
          }}
        />
      ) : null}
      {pins.map((pin) => (
        <button
          key={pin.id}
          type="button"
          className={`comment-pin${pin.isResolved ? " comment-pin--resolved" : ""}${pin.isSelected ? " comment-pin--selected" : ""}`}
          style={{ left: `${pin.x * 100}%`, top: `${pin.y * 100}%` }}
          aria-label={`Comment ${pin.number}${pin.isResolved ? " (resolved)" : ""}`}
          aria-pressed={pin.isSelected}
          data-comment-id={pin.id}
          onClick={() => onSelect(pin.id)}
        >
          {pin.number}
        </button>
      ))}
      {pending ? (
        <span
          className="comment-pin comment-pin--pending"
          style={{ left: `${pending.x * 100}%`, top: `${pending.y * 100}%` }}
          aria-hidden
        >
          +
        </span>
      ) : null}
    </div>
  );
}

const clamp = (value: number) => Math.min(1, Math.max(0, value));
