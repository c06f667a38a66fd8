/**
 * Choosing a region of the tab (issue #31), injected by the worker when the person asks for it from the
 * popup: a full-tab overlay in a closed shadow root; the person drags a rectangle, Esc cancels. It runs in
 * the extension's isolated world and trusts nothing from the page: only the person's own (trusted) pointer
 * and key events count, and it listens to no message from the page. It sends the worker the rectangle
 * alone; which project it goes to, and the credential, stay with the worker.
 */
import { MIN_REGION, type Rect, rectBetween } from "../src/region";

export default defineUnlistedScript(() => {
  const scope = globalThis as { __redlineRegion?: boolean };
  if (scope.__redlineRegion) return;
  scope.__redlineRegion = true;

  const host = document.createElement("div");
  host.style.cssText = "all:initial;position:fixed;inset:0;z-index:2147483647;cursor:crosshair";
  const root = host.attachShadow({ mode: "closed" });
  root.innerHTML = `<style>
    .shade{position:fixed;inset:0;background:rgba(15,23,42,.25)}
    .box{position:fixed;border:2px solid #e5383b;background:rgba(229,56,59,.08);display:none;box-sizing:border-box}
    .hint{position:fixed;top:12px;left:50%;transform:translateX(-50%);font:14px system-ui,sans-serif;
      background:#111827;color:#fff;padding:8px 12px;border-radius:6px}
  </style><div class="shade"></div><div class="box"></div>
  <p class="hint" role="status">Drag over the area to add to Redline — Esc cancels</p>`;
  const box = root.querySelector<HTMLElement>(".box")!;
  const hint = root.querySelector<HTMLElement>(".hint")!;
  let start: { x: number; y: number } | null = null;
  let rect: Rect | null = null;

  const end = () => {
    host.remove();
    window.removeEventListener("keydown", onKey, true);
    scope.__redlineRegion = false;
  };
  const onKey = (event: KeyboardEvent) => {
    if (!event.isTrusted || event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    end();
    void browser.runtime.sendMessage({ type: "region-cancelled" }).catch(() => {});
  };
  host.addEventListener("pointerdown", (event) => {
    if (!event.isTrusted || event.button !== 0) return;
    event.preventDefault();
    host.setPointerCapture(event.pointerId);
    start = { x: event.clientX, y: event.clientY };
  });
  host.addEventListener("pointermove", (event) => {
    if (!event.isTrusted || !start) return;
    rect = rectBetween(start, { x: event.clientX, y: event.clientY });
    Object.assign(box.style, {
      display: "block",
      left: `${rect.x}px`,
      top: `${rect.y}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
    });
  });
  host.addEventListener("pointerup", async (event) => {
    if (!event.isTrusted || !start) return;
    rect = rectBetween(start, { x: event.clientX, y: event.clientY });
    start = null;
    if (rect.width < MIN_REGION || rect.height < MIN_REGION) {
      box.style.display = "none";
      return;
    }
    // The overlay leaves the page before the tab is captured.
    end();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const answer = (await browser.runtime
      .sendMessage({
        type: "region-selected",
        rect,
        viewport: { width: window.innerWidth, height: window.innerHeight },
        title: document.title,
      })
      .catch(() => null)) as { ok: boolean; message?: string } | null;
    if (answer?.ok) return;
    // The worker's failure, told in the page for a moment (the popup is closed by now).
    hint.textContent = answer?.message ?? "Redline could not add this region: try again from the popup.";
    hint.setAttribute("role", "alert");
    root.replaceChildren(root.querySelector("style")!, hint);
    host.style.pointerEvents = "none";
    document.documentElement.append(host);
    setTimeout(() => host.remove(), 6000);
  });
  window.addEventListener("keydown", onKey, true);
  document.documentElement.append(host);
});
