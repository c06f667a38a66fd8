/**
 * The widget's stub, `redline.js` (a classic async script; keep it small). At page load it only installs
 * the ring buffers, sends any queued report, starts the replay recorder when the site opted in, and shows
 * the launcher in the shadow root of one `<redline-widget>` element. Everything else — the reporter UI,
 * the screenshot engine, the recorder — arrives as lazy chunks (ES modules beside this file) on first use.
 * The host and the one global come from the in-page kit (@redline/inpage): a page that defined
 * `redline-widget` itself, or holds an element with the id `__redlineWidget`, still gets the widget.
 */
import { createShadowHost, isStarted, setGlobal } from "@redline/inpage";
import { installBuffers } from "./buffers.ts";
import { type createSender, queueKey } from "./queue.ts";
import type { ChunkName, Recorder, WidgetConfig, WidgetHost } from "./types.ts";

type Sender = ReturnType<typeof createSender>;

declare const __REDLINE_CHUNKS__: ChunkName;
const GLOBAL = "__redlineWidget";

const LAUNCHER_CSS = `:host{all:initial}
[hidden]{display:none!important}
.launcher{position:fixed;right:16px;bottom:16px;z-index:2147483647;display:flex;align-items:center;gap:6px;
padding:8px 14px;border:0;border-radius:20px;background:#e5383b;color:#fff;font:600 13px/1.2 system-ui,-apple-system,"Segoe UI",sans-serif;
box-shadow:0 2px 10px rgba(0,0,0,.25);cursor:pointer}
.launcher:hover{background:#c9282b}.launcher:focus-visible{outline:2px solid #1d4ed8;outline-offset:2px}`;

function readConfig(): WidgetConfig | null {
  const script = (document.currentScript ??
    document.querySelector('script[data-key][src*="/widget/v1/redline.js"]')) as HTMLScriptElement | null;
  const key = script?.dataset.key;
  if (!script || !key) return null;
  const src = new URL(script.src, location.href);
  return {
    key,
    api: src.origin,
    base: new URL(".", src).href,
    trigger: script.dataset.trigger === "hidden" ? "hidden" : "button",
    replay: script.dataset.replay === "true",
  };
}

function start(config: WidgetConfig) {
  const intake = `${config.api}/api/widget/`;
  const buffers = installBuffers((url) => url.startsWith(intake), config.base);
  const load = (name: keyof ChunkName) => import(/* @vite-ignore */ config.base + __REDLINE_CHUNKS__[name]);
  // Sending is a chunk of its own, loaded to send a report or when reports wait in the queue.
  let sender: Promise<Sender> | undefined;
  const sending = () =>
    (sender ??= load("queue").then(
      (chunk): Sender => chunk.createSender(config.api, config.key),
      (error: unknown) => {
        sender = undefined; // tried again next time
        throw error;
      },
    ));
  const flush = () => {
    try {
      if (localStorage.getItem(queueKey(config.key)))
        sending().then(
          (queue) => queue.flush(),
          () => undefined,
        );
    } catch {}
  };

  let recorder: Recorder | null = null;
  if (config.replay)
    load("replay").then(
      (chunk) => {
        recorder = chunk.startRecorder();
      },
      () => undefined,
    );

  const { host: element, root } = createShadowHost(document, "redline-widget");
  const style = document.createElement("style");
  style.textContent = LAUNCHER_CSS;
  root.append(style);
  let launcher: HTMLButtonElement | null = null;
  if (config.trigger === "button") {
    launcher = document.createElement("button");
    launcher.type = "button";
    launcher.className = "launcher";
    launcher.textContent = "Report a bug";
    launcher.addEventListener("click", () => open());
    root.append(launcher);
  }

  const host: WidgetHost = {
    config,
    buffers,
    root,
    element,
    load,
    recorder: () => recorder,
    send: (outgoing) => sending().then((queue) => queue.send(outgoing)),
    closed() {
      isOpen = false;
      if (launcher) launcher.hidden = false;
    },
  };
  let isOpen = false;
  function open() {
    if (isOpen) return;
    isOpen = true;
    if (launcher) launcher.hidden = true;
    // With the reporter: a report sent offline must still find the queue it waits in.
    sending().catch(() => undefined);
    load("reporter").then(
      (chunk) => chunk.openReporter(host),
      (error: unknown) => {
        isOpen = false;
        if (launcher) launcher.hidden = false;
        console.warn("Redline widget: could not load", error);
      },
    );
  }
  setGlobal(GLOBAL, { open });

  const mount = () => {
    (document.body ?? document.documentElement).append(element);
    if (new URLSearchParams(location.search).get("redline") === "1") open();
  };
  if (document.body) mount();
  else addEventListener("DOMContentLoaded", mount, { once: true });
  addEventListener("keydown", (event) => {
    if (event.altKey && event.shiftKey && event.code === "KeyB") {
      event.preventDefault();
      open();
    }
  });
  addEventListener("online", flush);
  setTimeout(flush, 1000);
}

if (!isStarted(GLOBAL)) {
  const config = readConfig();
  if (config) start(config);
}
