/**
 * The reporter's last step: everything the report contains, read from the very object that is sent; once
 * sent, its screen recording (if any) is uploaded with the token the intake answered, with its progress.
 */
import { h, mmss } from "./dom.ts";
import type { Outgoing, Recording, SendResult, WidgetHost } from "./types.ts";

/** Shows the preview in `dialog` (the editor hidden meanwhile); Send sends `outgoing` as shown. */
export function showPreview(
  host: WidgetHost,
  dialog: HTMLElement,
  outgoing: Outgoing,
  recording: Recording | null,
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
    recording
      ? h("video", {
          src: URL.createObjectURL(recording.blob),
          controls: true,
          "aria-label": "Screen recording to be sent",
          className: "clip",
        })
      : null,
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
      h("dt", {}, "Screen recording"),
      h(
        "dd",
        {},
        recording ? `Attached (${mmss(recording.seconds)}), uploaded after the report` : "Not attached",
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
    if (recording) await sendRecording(result, recording, status);
    send.disabled = false;
    isDone = true;
  });
}

/** After the report: its recording's upload, its progress and outcome said in `status`. */
async function sendRecording(result: SendResult, recording: Recording, status: HTMLElement) {
  if (result.status !== "sent" || !result.video) {
    status.append(" The screen recording cannot wait offline, so it was not kept.");
    return;
  }
  const sent = status.textContent;
  const progress = h("progress", { max: "1", value: "0", "aria-label": "Uploading the screen recording" });
  const said = h("span", {}, " Uploading the screen recording… 0 %");
  status.append(said, progress);
  try {
    await recording.upload(result.video, (fraction) => {
      progress.value = fraction;
      said.textContent = ` Uploading the screen recording… ${Math.floor(fraction * 100)} %`;
    });
    status.textContent = `${sent} The screen recording was uploaded too.`;
  } catch (failed) {
    status.textContent = `${sent} The screen recording could not be uploaded: ${(failed as Error).message}`;
    status.className = "error";
  }
}
