/**
 * Every style of the overlay, adopted by its shadow root. The page's CSS cannot reach inside; on the
 * host element itself, `:host` declarations marked !important win over any !important rule of the
 * page (the inner context wins for important declarations), so `* { display: none !important }`
 * cannot hide or restyle us. Constructed style sheets are also outside CSP `style-src`.
 */
const ACCENT = "#e5383b";
const RESOLVED = "#8d939c";
const INK = "#1a1a1a";
const PIN = 24;

export const OVERLAY_CSS = `
:host {
  all: initial !important;
  display: block !important;
  position: absolute !important;
  top: 0 !important;
  left: 0 !important;
  width: 0 !important;
  height: 0 !important;
  margin: 0 !important;
  padding: 0 !important;
  border: 0 !important;
  overflow: visible !important;
  visibility: visible !important;
  opacity: 1 !important;
  transform: none !important;
  z-index: 2147483647 !important;
  pointer-events: none !important;
}
:host::before, :host::after { content: none !important; display: none !important; }
[hidden] { display: none !important; }

/* Sized to the document (measured without us), and clipping: a pin on the page's edge must not make
   the document larger, or the app would resize the frame, which moves the pin, and so on. */
.clip {
  position: absolute;
  top: 0;
  left: 0;
  width: 0;
  height: 0;
  overflow: clip;
  pointer-events: none;
}
.pins { position: absolute; top: 0; left: 0; }

.highlight {
  position: absolute;
  top: 0;
  left: 0;
  box-sizing: border-box;
  border: 2px solid ${ACCENT};
  border-radius: 2px;
  background: rgba(229, 56, 59, 0.08);
  pointer-events: none;
}

/* Inspect: the selected element keeps a solid outline without the hover tint; dashed while its text
   is being edited. Distances are thin lines with a px label at their middle. */
.selection {
  position: absolute;
  top: 0;
  left: 0;
  box-sizing: border-box;
  border: 2px solid ${ACCENT};
  box-shadow: 0 0 0 1px #fff;
  pointer-events: none;
}
.selection.is-editing { border-style: dashed; }
.distances { position: absolute; top: 0; left: 0; pointer-events: none; }
.distance { position: absolute; top: 0; left: 0; background: ${ACCENT}; }
.distance-label {
  position: absolute;
  top: 50%;
  left: 50%;
  transform: translate(-50%, -50%);
  padding: 0 4px;
  border-radius: 2px;
  background: ${ACCENT};
  color: #fff;
  font: 600 10px/16px Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  white-space: nowrap;
}
.distance.is-horizontal .distance-label { top: -10px; }
.distance.is-vertical .distance-label { left: 14px; }

.pin {
  position: absolute;
  top: 0;
  left: 0;
  box-sizing: border-box;
  width: ${PIN}px;
  height: ${PIN}px;
  margin: ${-PIN / 2}px 0 0 ${-PIN / 2}px;
  padding: 0;
  border: 2px solid #fff;
  border-radius: 50%;
  background: ${ACCENT};
  color: #fff;
  font: 600 11px/20px Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  text-align: center;
  white-space: nowrap;
  box-shadow: 0 1px 4px rgba(0, 0, 0, 0.35);
  cursor: pointer;
  pointer-events: auto;
  user-select: none;
  -webkit-tap-highlight-color: transparent;
}
.pin:focus { outline: none; }
.pin:focus-visible { outline: 2px solid ${INK}; outline-offset: 2px; }
.pin.is-resolved { background: ${RESOLVED}; }
.pin.is-selected { z-index: 1; box-shadow: 0 0 0 3px rgba(229, 56, 59, 0.4), 0 1px 4px rgba(0, 0, 0, 0.35); }
.pin.is-resolved.is-selected { box-shadow: 0 0 0 3px rgba(141, 147, 156, 0.45), 0 1px 4px rgba(0, 0, 0, 0.35); }
.pin.is-focused { z-index: 2; animation: redline-pulse 1.2s ease-out 2; }
.pin.is-pending { z-index: 3; cursor: default; pointer-events: none; animation: redline-pulse 1.6s ease-out infinite; }
@keyframes redline-pulse {
  from { box-shadow: 0 0 0 0 rgba(229, 56, 59, 0.55), 0 1px 4px rgba(0, 0, 0, 0.35); }
  to { box-shadow: 0 0 0 12px rgba(229, 56, 59, 0), 0 1px 4px rgba(0, 0, 0, 0.35); }
}
@media (prefers-reduced-motion: reduce) {
  .pin.is-focused, .pin.is-pending { animation: none; }
}
`;
