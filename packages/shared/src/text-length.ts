/**
 * How long a text is, counted as the contracts count it: trimmed first (the schemas trim), then in
 * characters as zod counts them over a limit (an emoji, a surrogate pair, is one). The web's text boxes
 * show and check this same count, so a box never calls fine what the server would refuse.
 */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of text.trim()) count++;
  return count;
}

/** True while `text` is within `max` characters as the server counts them. */
export function isWithinLength(text: string, max: number): boolean {
  return textLength(text) <= max;
}
