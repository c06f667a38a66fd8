/** A pin's anchor as the overlay sends it (packages/anchoring), for API tests that pin comments or edits. */
export const testAnchor = (selector = "h1", text = "Hello") => ({
  v: 1,
  querySelector: selector,
  selectors: { css: selector, xpath: "/html/body/h1", idPath: null },
  fingerprint: { tag: "h1", text },
  dot: { x: 0.25, y: 0.5 },
});

/** A new comment's body pinned on the page's h1, as the overlay sends it. */
export const testComment = (text: string, deviceWidth = 1280) => ({
  anchor: testAnchor(),
  dotPosition: { x: 0.25, y: 0.5 },
  deviceWidth,
  comment: text,
});
