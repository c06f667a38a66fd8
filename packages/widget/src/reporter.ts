/**
 * The reporter chunk: pick → screenshot → marks, note, an optional screen recording and who you are →
 * preview of exactly what is sent → send (or queue), then the recording's upload. Opened by the stub on the launcher's click, `?redline=1` or Alt+Shift+B.
 */
import { type Picked, pick } from "@redline/inpage";
import { annotator, type Tool } from "./annotate.ts";
import { h, mmss, nextFrame } from "./dom.ts";
import { showPreview } from "./preview.ts";
import { buildReport } from "./report.ts";
import type { Shot } from "./screenshot.ts";
import { REPORTER_CSS } from "./styles.ts";
import type { Outgoing, Recording, Reporter, WidgetHost } from "./types.ts";

const REPORTER_KEY = "redline-widget:reporter";
/** Past this, the screenshot goes as JPEG (the intake takes 5 MB). */
const MAX_PNG_CHARS = 6_000_000;

function savedReporter(): Reporter | null {
  try {
    const saved = JSON.parse(localStorage.getItem(REPORTER_KEY) ?? "null");
    return saved && typeof saved.name === "string" && typeof saved.email === "string" ? saved : null;
  } catch {
    return null;
  }
}

export async function openReporter(host: WidgetHost): Promise<void> {
  const { root } = host;
  if (!root.querySelector("style[data-reporter]"))
    root.append(h("style", { "data-reporter": true }, REPORTER_CSS));
  const picked = await pick(root, host.element);
  if (!picked) return host.closed();

  const screenshot = await host.load("screenshot");
  const capture = async (how: "dom" | "tab"): Promise<Shot | null> => {
    host.element.style.setProperty("display", "none", "important");
    await nextFrame();
    await nextFrame();
    try {
      return how === "dom" ? await screenshot.captureDom(host.element) : await screenshot.captureTab();
    } catch (error) {
      console.warn("Redline widget: screenshot failed", error);
      return null;
    } finally {
      host.element.style.removeProperty("display");
    }
  };
  const shot = await capture("dom");
  showEditor(host, picked, shot, capture);
}

function showEditor(
  host: WidgetHost,
  picked: Picked,
  first: Shot | null,
  capture: (how: "dom" | "tab") => Promise<Shot | null>,
) {
  const { root } = host;
  let shot = first;
  const close = () => {
    backdrop.remove();
    removeEventListener("keydown", onKey, true);
    host.closed();
  };
  const onKey = (event: KeyboardEvent) => {
    // While the screen is recorded the reporter is hidden: Escape is the page's.
    if (event.key === "Escape" && !backdrop.hidden) close();
  };
  addEventListener("keydown", onKey, true);

  const canvas = h("canvas", {
    className: "shot",
    "aria-label": "Screenshot: draw on it to mark the problem",
  });
  const marker = shot ? annotator(canvas, () => shot!.canvas, shot.scale) : null;
  if (shot && marker && picked.region) {
    const { x, y, width, height } = picked.region;
    const s = shot.scale;
    marker.marks.push({
      tool: "rect",
      points: [
        { x: x * s, y: y * s },
        { x: (x + width) * s, y: (y + height) * s },
      ],
    });
  }
  marker?.render();

  const toolButtons = (["rect", "arrow", "pen"] as Tool[]).map((tool) => {
    const label = { rect: "Rectangle", arrow: "Arrow", pen: "Pen" }[tool];
    const button = h("button", { type: "button", "aria-pressed": tool === "rect" ? "true" : "false" }, label);
    button.addEventListener("click", () => {
      marker?.setTool(tool);
      for (const other of toolButtons) other.setAttribute("aria-pressed", String(other === button));
    });
    return button;
  });
  const canTabCapture = typeof navigator.mediaDevices?.getDisplayMedia === "function";
  const exact = canTabCapture ? h("button", { type: "button" }, "Use a pixel-exact screenshot") : null;
  exact?.addEventListener("click", async () => {
    const next = await capture("tab");
    if (next && marker) {
      // Marks stay where they were on the page: rescale them to the new picture.
      const ratio = next.scale / (shot?.scale ?? next.scale);
      for (const mark of marker.marks)
        for (const point of mark.points) {
          point.x *= ratio;
          point.y *= ratio;
        }
      shot = next;
      marker.render();
    }
  });

  const known = savedReporter();
  const note = h("textarea", {
    name: "note",
    required: true,
    placeholder: "What went wrong? What did you expect?",
  });
  const name = h("input", { type: "text", name: "name", autocomplete: "name", value: known?.name ?? "" });
  const email = h("input", {
    type: "email",
    name: "email",
    autocomplete: "email",
    value: known?.email ?? "",
  });
  const who = h(
    "div",
    { className: "row" },
    h("label", {}, "Your name", name),
    h("label", {}, "Your e-mail", email),
  );
  let whoSummary: HTMLElement | null = null;
  if (known) {
    who.hidden = true;
    const change = h("button", { type: "button", className: "link" }, "Change");
    change.addEventListener("click", () => {
      who.hidden = false;
      whoSummary?.remove();
    });
    whoSummary = h("p", { className: "muted" }, `Sending as ${known.name} <${known.email}> · `, change);
  }
  const recorder = host.recorder();
  const replayBox = h("input", { type: "checkbox", name: "replay" });
  const replayOption = recorder
    ? h("label", { className: "check" }, replayBox, "Attach a replay of the last 2 minutes (inputs masked)")
    : null;
  const error = h("p", { className: "error", role: "alert" });

  // A screen recording (issue #33): the recorder is a chunk of its own, loaded on the first press.
  let recording: Recording | null = null;
  const canRecord =
    typeof navigator.mediaDevices?.getDisplayMedia === "function" && typeof MediaRecorder === "function";
  const recordButton = canRecord ? h("button", { type: "button" }, "Record screen") : null;
  const recordSlot = h("div", { className: "recording" }, recordButton);
  const showRecorded = (made: Recording) => {
    const url = URL.createObjectURL(made.blob);
    const remove = h("button", { type: "button" }, "Remove");
    remove.addEventListener("click", () => {
      URL.revokeObjectURL(url);
      recording = null;
      recordSlot.replaceChildren(recordButton ?? "");
      recordButton?.focus();
    });
    recordSlot.replaceChildren(
      h("video", { src: url, controls: true, "aria-label": "Your screen recording", className: "clip" }),
      h("p", { className: "muted" }, `Screen recording, ${mmss(made.seconds)} · `, remove),
    );
  };
  recordButton?.addEventListener("click", async () => {
    recordButton.disabled = true;
    error.textContent = "";
    try {
      const recorder = await host.load("record");
      // The page is recorded without the reporter over it.
      backdrop.hidden = true;
      const made: Recording | null = await recorder.recordScreen(root, host.config.api, host.config.key);
      if (made) {
        recording = made;
        showRecorded(made);
      }
    } catch (failed) {
      error.textContent =
        failed instanceof Error && failed.name !== "TypeError" && failed.message
          ? failed.message
          : "The recorder could not be loaded. Check your connection and try again.";
    } finally {
      backdrop.hidden = false;
      recordButton.disabled = false;
    }
  });

  const body = h(
    "div",
    { className: "body" },
    shot
      ? h(
          "div",
          { className: "tools", role: "toolbar", "aria-label": "Marks" },
          ...toolButtons,
          h("button", { type: "button", onclick: () => marker?.undo() }, "Undo"),
          exact,
        )
      : h("p", { className: "muted" }, "The screenshot could not be taken; the report goes without it."),
    shot ? canvas : null,
    h("label", {}, "Note", note),
    recordSlot,
    whoSummary,
    who,
    replayOption,
    error,
  );
  const review = h("button", { type: "button", className: "primary" }, "Review what will be sent");
  const footer = h("footer", {}, h("button", { type: "button", onclick: close }, "Cancel"), review);
  const dialog = h(
    "div",
    { className: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "redline-title" },
    h(
      "header",
      {},
      h("h2", { id: "redline-title" }, "Report a bug"),
      h("button", { type: "button", "aria-label": "Close", onclick: close }, "×"),
    ),
    body,
    footer,
  );
  const backdrop = h("div", { className: "backdrop" }, dialog);
  root.append(backdrop);
  note.focus();

  review.addEventListener("click", () => {
    const reporter = { name: name.value.trim(), email: email.value.trim() };
    const problem = !note.value.trim()
      ? "Write a note about the problem."
      : !reporter.name
        ? "Give your name."
        : !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(reporter.email)
          ? "Give a valid e-mail address."
          : "";
    error.textContent = problem;
    if (problem) return;
    try {
      localStorage.setItem(REPORTER_KEY, JSON.stringify(reporter));
    } catch {}
    let image: string | null = null;
    if (shot) {
      image = canvas.toDataURL("image/png");
      if (image.length > MAX_PNG_CHARS) image = canvas.toDataURL("image/jpeg", 0.85);
    }
    const outgoing: Outgoing = {
      report: {
        key: host.config.key,
        title: "",
        note: note.value.trim(),
        reporter,
        report: buildReport(host.buffers, picked),
      },
      screenshot: image,
      replay: replayBox.checked && recorder ? recorder.take() : null,
    };
    showPreview(
      host,
      dialog,
      outgoing,
      recording,
      () => {
        body.hidden = false;
        footer.hidden = false;
      },
      close,
    );
    body.hidden = true;
    footer.hidden = true;
  });
}
