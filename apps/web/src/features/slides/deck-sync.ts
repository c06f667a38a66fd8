/**
 * The deck of an illustration project in this tab (ADR 0040): a Yjs document loaded from the server,
 * changed locally at once, and kept in step with the other editors. What this tab changes is sent in
 * coalesced updates (one request in flight; what piles up meanwhile goes as one merged update), kept while
 * the server cannot be reached and sent when it can; what others change arrives on the realtime socket
 * (`deck.updated`). After every (re)join of the room the tab reads the server's deck again and sends what
 * the server lacks, so an editor that was offline merges when back. Before the tab goes away, `flush`
 * sends what is waiting (with `keepalive`, so a closing tab still delivers it).
 */
import type { DeckPresence, DeckState, RealtimeEvent } from "@redline/shared";
import * as Y from "yjs";
import { api, isApiError } from "../../lib/api.ts";
import { guestRealtime, realtime } from "../../lib/realtime.ts";
import { guestKey } from "../conversations/guest-key.ts";

/** The origin of this tab's own edits: the undo manager tracks these only. */
export const LOCAL = Symbol("local");
const REMOTE = "remote";
/** How long edits are gathered before they are sent (a drag's many steps go as one update). */
export const SEND_AFTER_MS = 30;
const RETRY_MS = [500, 1000, 2000, 5000];
/** Someone's presence is dropped when not repeated within this time. */
export const PRESENCE_TTL_MS = 30_000;

export type SyncStatus = "loading" | "saved" | "saving" | "offline" | "error";

const toBase64 = (bytes: Uint8Array) => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export class DeckSync {
  readonly doc = new Y.Doc();
  readonly slides = this.doc.getMap<Y.Map<unknown>>("slides");
  readonly undo = new Y.UndoManager(this.slides, { trackedOrigins: new Set([LOCAL]), captureTimeout: 0 });
  canEdit = false;
  status: SyncStatus = "loading";
  presence = new Map<number, DeckPresence & { seenAt: number }>();
  /** How many changes this tab made itself (the project card's thumbnail follows only those). */
  localEdits = 0;
  private pending: Uint8Array[] = [];
  private inFlight = false;
  /** The update being sent: a flush sends it again with what follows (Yjs takes a repeat as nothing). */
  private inFlightUpdate: Uint8Array | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private stopped = false;
  private readonly listeners = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;

  /**
   * `guestIdentity`: a visitor of the public link (no account; `public` when they gave no name) reads the
   * deck through `/api/share`, hears its changes and who is on it on the link's guest socket, never sends
   * a change, and says where they are under that identity (members see them as they see each other).
   */
  constructor(
    readonly projectId: string,
    /** Changes when the guest names themselves (the deck stays as loaded). */
    public guestIdentity: string | null = null,
  ) {
    this.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin === REMOTE) return;
      if (origin === LOCAL) this.localEdits++;
      this.pending.push(update);
      this.schedule(SEND_AFTER_MS);
    });
  }

  get guest(): boolean {
    return this.guestIdentity !== null;
  }

  /** Reads the deck and follows the room; resolves once the deck is shown. */
  async start(): Promise<void> {
    this.stopped = false;
    const listener = {
      onEvent: (event: RealtimeEvent) => this.onEvent(event),
      onResync: () => {
        void this.resync().catch(() => undefined);
      },
    };
    // A guest hears the deck's changes on the guest socket of the link (with its comments).
    this.unsubscribe = this.guest
      ? guestRealtime().subscribeGuest(this.projectId, guestKey(), listener, "comments")
      : realtime().subscribe(this.projectId, listener);
    await this.resync();
  }

  stop(): void {
    this.stopped = true;
    this.flush();
    this.unsubscribe?.();
    clearTimeout(this.timer);
  }

  /** Called on every change of the document, the status or presence. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }

  private setStatus(status: SyncStatus) {
    if (this.status === status) return;
    this.status = status;
    this.emit();
  }

  /** The server's deck merged in; what it lacks of ours queued to send. */
  async resync(): Promise<void> {
    try {
      const { data } = await api<{ data: DeckState }>(
        `${this.guest ? "/api/share" : "/api/projects"}/${this.projectId}/deck`,
      );
      const update = fromBase64(data.update);
      this.canEdit = data.canEdit && !this.guest;
      Y.applyUpdate(this.doc, update, REMOTE);
      if (this.canEdit) {
        const missing = Y.encodeStateAsUpdate(this.doc, Y.encodeStateVectorFromUpdate(update));
        // An update with nothing in it is 2 bytes long (no structs, no deletions).
        if (missing.length > 2) this.pending.push(missing);
      } else {
        this.pending = [];
      }
      this.failures = 0;
      this.setStatus(this.pending.length ? "saving" : "saved");
      this.emit();
      this.schedule(0);
    } catch (error) {
      this.setStatus(isApiError(error) && error.status === 0 ? "offline" : "error");
      throw error;
    }
  }

  private onEvent(event: RealtimeEvent) {
    if (event.type === "deck.updated" && event.projectId === this.projectId) {
      if (event.clientId === this.doc.clientID) return;
      Y.applyUpdate(this.doc, fromBase64(event.update), REMOTE);
      return;
    }
    if (event.type === "deck.presence" && event.projectId === this.projectId) {
      if (event.presence.clientId === this.doc.clientID) return;
      this.presence.set(event.presence.clientId, { ...event.presence, seenAt: Date.now() });
      this.emit();
    }
  }

  /** Others on the deck now (their presence repeated within the TTL). */
  others(now = Date.now()): DeckPresence[] {
    return [...this.presence.values()].filter((p) => now - p.seenAt < PRESENCE_TTL_MS && p.slideId !== null);
  }

  sendPresence(slideId: string | null, selection: string[], keepalive = false): void {
    if (this.stopped && !keepalive) return;
    const guest = this.guestIdentity;
    void fetch(`${guest === null ? "/api/projects" : "/api/share"}/${this.projectId}/deck/presence`, {
      method: "POST",
      credentials: "same-origin",
      keepalive,
      headers: {
        "content-type": "application/json",
        ...(guest !== null && { "x-redline-guest": guest }),
      },
      body: JSON.stringify({ clientId: this.doc.clientID, slideId, selection }),
    }).catch(() => undefined);
  }

  private schedule(delay: number) {
    if (this.inFlight || this.pending.length === 0 || !this.canEdit) return;
    clearTimeout(this.timer);
    this.setStatus("saving");
    this.timer = setTimeout(() => void this.send(), delay);
  }

  private async send() {
    if (this.inFlight || this.pending.length === 0) return;
    this.inFlight = true;
    const batch = this.pending.splice(0);
    const update = batch.length === 1 ? (batch[0] as Uint8Array) : Y.mergeUpdates(batch);
    this.inFlightUpdate = update;
    try {
      await api(`/api/projects/${this.projectId}/deck/updates`, {
        method: "POST",
        body: { update: toBase64(update), clientId: this.doc.clientID },
      });
      this.failures = 0;
      this.inFlight = false;
      this.inFlightUpdate = null;
      if (this.pending.length) this.schedule(0);
      else this.setStatus("saved");
    } catch (error) {
      this.inFlight = false;
      this.inFlightUpdate = null;
      if (isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429) {
        // The server lacks what this change builds on: read its deck and send everything it lacks.
        if (error.code === "deck-gap") {
          void this.resync().catch(() => undefined);
          return;
        }
        // Refused (no right, or a change the server cannot take): nothing more is sent; a reload shows
        // the server's deck.
        if (error.status === 403) this.canEdit = false;
        this.pending = [];
        this.setStatus("error");
        return;
      }
      // Unreachable or unavailable: kept, merged with what follows, sent when the server answers.
      this.pending.unshift(update);
      this.setStatus("offline");
      const delay = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)] as number;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.send(), delay);
    }
  }

  /** Sends what is waiting now, surviving the tab's closing (pagehide, navigation away). */
  flush(): void {
    clearTimeout(this.timer);
    if (this.pending.length === 0 || !this.canEdit) return;
    const update = Y.mergeUpdates([
      ...(this.inFlightUpdate ? [this.inFlightUpdate] : []),
      ...this.pending.splice(0),
    ]);
    void fetch(`/api/projects/${this.projectId}/deck/updates`, {
      method: "POST",
      credentials: "same-origin",
      keepalive: true,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ update: toBase64(update), clientId: this.doc.clientID }),
    }).catch(() => {
      this.pending.unshift(update);
    });
  }

  /** Whether edits are still waiting to reach the server. */
  hasUnsent(): boolean {
    return this.pending.length > 0 || this.inFlight;
  }
}
