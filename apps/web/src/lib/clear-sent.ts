/**
 * A box is emptied when what it sent is answered, not when the page's data reloads, and only if it still
 * holds what was sent: text typed while the send was on its way is kept (issue #36, item 18).
 * `setText(clearSent(sent))`.
 */
export const clearSent =
  (sent: string) =>
  (current: string): string =>
    current === sent ? "" : current;
