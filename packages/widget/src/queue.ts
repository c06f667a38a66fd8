/**
 * Sending a report, and the offline queue: a report that cannot go now (offline, the network failed, the
 * server is busy or rate-limits) is kept in localStorage and sent when `online` fires or on the next page
 * load. A refusal (4xx other than 429) is final: the report is dropped and the reporter told why. A lazy
 * chunk of its own: the stub loads it to send, or at load when `queueKey` holds something.
 */
import type { Outgoing, SendResult, VideoGrant } from "./types.ts";

const MAX_QUEUED = 5;
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

interface Queued extends Outgoing {
  queuedAt: number;
}

function dataUrlBlob(dataUrl: string): Blob {
  const [head, data = ""] = dataUrl.split(",", 2);
  const type = /data:([^;]+)/.exec(head ?? "")?.[1] ?? "image/png";
  const bytes = atob(data);
  const array = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) array[i] = bytes.charCodeAt(i);
  return new Blob([array], { type });
}

/** Where the reports waiting to be sent are kept, per project key. */
export const queueKey = (key: string) => `redline-widget:queue:${key}`;

export function createSender(api: string, key: string) {
  const storageKey = queueKey(key);
  const read = (): Queued[] => {
    try {
      const parsed = JSON.parse(localStorage.getItem(storageKey) ?? "[]");
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  };
  const write = (queue: Queued[]) => {
    // A screenshot may not fit in the origin's storage: keep what fits, the report itself first.
    for (const shrink of [
      (entry: Queued) => entry,
      (entry: Queued) => ({ ...entry, replay: null }),
      (entry: Queued) => ({ ...entry, replay: null, screenshot: null }),
    ]) {
      try {
        if (queue.length === 0) localStorage.removeItem(storageKey);
        else localStorage.setItem(storageKey, JSON.stringify(queue.map(shrink)));
        return;
      } catch {}
    }
  };

  /** "sent" with its number and its recording's grant, "retry" (keep it) or a refusal's message. */
  async function post(
    outgoing: Outgoing,
  ): Promise<{ number: number; video: VideoGrant | null } | "retry" | { message: string }> {
    const form = new FormData();
    form.append("report", JSON.stringify(outgoing.report));
    if (outgoing.screenshot) form.append("screenshot", dataUrlBlob(outgoing.screenshot), "screenshot.png");
    if (outgoing.replay)
      form.append("replay", new Blob([outgoing.replay], { type: "application/json" }), "replay.json");
    let response: Response;
    try {
      response = await fetch(`${api}/api/widget/reports`, {
        method: "POST",
        body: form,
        credentials: "omit",
      });
    } catch {
      return "retry";
    }
    if (response.status === 201) {
      const body = await response.json().catch(() => null);
      return { number: Number(body?.data?.number ?? 0), video: body?.data?.video ?? null };
    }
    if (response.status === 429 || response.status >= 500) return "retry";
    const body = await response.json().catch(() => null);
    return { message: String(body?.message ?? `The report was refused (${response.status}).`) };
  }

  let flushing = false;
  async function flush() {
    if (flushing || !navigator.onLine) return;
    flushing = true;
    try {
      let queue = read().filter((entry) => Date.now() - entry.queuedAt < MAX_AGE_MS);
      while (queue.length > 0) {
        const [first] = queue;
        const result = await post(first!);
        if (result === "retry") break;
        queue = queue.slice(1);
        write(queue);
      }
      write(queue);
    } finally {
      flushing = false;
    }
  }

  async function send(outgoing: Outgoing): Promise<SendResult> {
    const result = navigator.onLine ? await post(outgoing) : "retry";
    if (result === "retry") {
      write([...read(), { ...outgoing, queuedAt: Date.now() }].slice(-MAX_QUEUED));
      return { status: "queued" };
    }
    if ("message" in result) return { status: "refused", message: result.message };
    return { status: "sent", ...result };
  }

  return { send, flush, pending: () => read().length };
}
