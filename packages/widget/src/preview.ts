/** The reporter's last step: everything the report contains, read from the very object that is sent. */
import { h } from "./dom.ts";
import type { Outgoing, WidgetHost } from "./types.ts";

/** Shows the preview in `dialog` (the editor hidden meanwhile); Send sends `outgoing` as shown. */
export function showPreview(
  host: WidgetHost,
  dialog: HTMLElement,
  outgoing: Outgoing,
  back: () => void,
  close: () => void,
) {
  const { report } = outgoing.report;
  const list = (items: string[], empty: string) =>
    items.length
      ? h("ul", { className: "list" }, ...items.map((item) => h("li", {}, item)))
      : h("p", { className: "muted" }, empty);
  const status = h("p", { role: "status" });
  const send = h("button", { type: "button", className: "primary" }, "Send");
  const backButton = h("button", { type: "button" }, "Back");
  const preview = h(
    "div",
    { className: "body preview", "aria-label": "What will be sent" },
    h("p", { className: "muted" }, "This is everything the report contains."),
    outgoing.screenshot
      ? h("img", { src: outgoing.screenshot, alt: "Screenshot to be sent", className: "shot" })
      : h("p", { className: "muted" }, "No screenshot."),
    h(
      "dl",
      {},
      h("dt", {}, "Note"),
      h("dd", {}, outgoing.report.note),
      h("dt", {}, "From"),
      h("dd", {}, `${outgoing.report.reporter.name} <${outgoing.report.reporter.email}>`),
      h("dt", {}, "Page"),
      h("dd", {}, report.pageUrl),
      h("dt", {}, "Element"),
      h(
        "dd",
        {},
        report.element
          ? `${report.element.selector}${report.element.text ? ` — “${report.element.text}”` : ""}`
          : "A marked region",
      ),
      h("dt", {}, "Browser"),
      h("dd", {}, `${report.browser}, ${report.os}`),
      h("dt", {}, "Viewport"),
      h(
        "dd",
        {},
        `${report.viewport.width} × ${report.viewport.height} @${report.viewport.devicePixelRatio}x`,
      ),
      h("dt", {}, "Replay"),
      h(
        "dd",
        {},
        outgoing.replay ? `Attached (${Math.round(outgoing.replay.length / 1024)} KB)` : "Not attached",
      ),
    ),
    h("h3", {}, `Console (${report.console.length})`),
    list(
      report.console.map((entry) => `[${entry.level}] ${entry.message}`),
      "No console messages.",
    ),
    h("h3", {}, `Failed requests (${report.failedRequests.length})`),
    list(
      report.failedRequests.map(
        (entry) => `${entry.method} ${entry.url} → ${entry.status || "network error"}`,
      ),
      "No failed requests.",
    ),
    status,
  );
  const footer = h("footer", {}, backButton, send);
  dialog.append(preview, footer);
  dialog.parentElement?.scrollTo(0, 0);
  backButton.addEventListener("click", () => {
    preview.remove();
    footer.remove();
    back();
  });
  let isDone = false;
  send.addEventListener("click", async () => {
    if (isDone) return close();
    send.disabled = true;
    backButton.disabled = true;
    status.textContent = "Sending…";
    const result = await host.send(outgoing);
    if (result.status === "refused") {
      status.textContent = result.message;
      status.className = "error";
      send.disabled = false;
      backButton.disabled = false;
      return;
    }
    status.textContent =
      result.status === "sent"
        ? `Thank you — report #${result.number} was sent.`
        : "You seem to be offline: the report is saved and will be sent when the connection returns.";
    backButton.remove();
    send.textContent = "Done";
    send.disabled = false;
    isDone = true;
  });
}
