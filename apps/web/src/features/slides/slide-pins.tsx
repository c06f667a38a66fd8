/**
 * The comment pins of a slide for the keyboard and screen readers (issue #32): the stage draws each pin on
 * its canvas, which no key reaches, so every pin also has a button at the same place — in the tab order,
 * named by its number, its author and whether it is resolved, opening its thread with Enter or Space.
 * The buttons let the pointer through (it clicks and drags the drawn pin); they show only when focused.
 */
import type { StagePin } from "./slide-stage.tsx";

/** A pin's accessible name: 'Comment 2 by Ada Lovelace', ', resolved' when it is. */
export const pinLabel = (pin: Pick<StagePin, "number" | "author" | "isResolved">) =>
  `Comment ${pin.number}${pin.author ? ` by ${pin.author}` : ""}${pin.isResolved ? ", resolved" : ""}`;

export function SlidePins({
  pins,
  scale,
  onOpen,
}: {
  pins: readonly StagePin[];
  /** Screen pixels per slide pixel (the stage's). */
  scale: number;
  onOpen(commentId: string): void;
}) {
  if (pins.length === 0) return null;
  return (
    <ul className="slide-pins" aria-label="Comment pins">
      {pins.map((pin) => (
        <li key={pin.id}>
          <button
            type="button"
            className="slide-pins__pin"
            aria-label={pinLabel(pin)}
            aria-pressed={pin.isOpen}
            style={{ left: pin.x * scale, top: pin.y * scale }}
            onClick={() => onOpen(pin.id)}
          />
        </li>
      ))}
    </ul>
  );
}
