/**
 * The tab's realtime socket (`/api/realtime`, signed-in users only): one WebSocket shared by every
 * open view, joined to the rooms of the projects on screen; the server puts it in the user's own room
 * too (notifications). It reconnects with backoff after a drop and, each time the server confirms a
 * room (`joined`, or `ready` for the user's room), tells that room's listeners to resync — events sent
 * while the socket was away are not replayed, so views refetch what they show.
 */
import type { RealtimeClientMessage, RealtimeEvent, RealtimeServerMessage } from "@redline/shared";

export interface RoomListener {
  onEvent(event: RealtimeEvent): void;
  /** The room is (re)joined: refetch, something may have been missed. */
  onResync(): void;
}

const PING_MS = 25_000;
const MAX_BACKOFF_MS = 10_000;
/** Close codes after which retrying cannot help (signed out, foreign origin). */
const FINAL_CLOSE_CODES = new Set([4401, 4403]);

class RealtimeConnection {
  private socket: WebSocket | null = null;
  private readonly rooms = new Map<string, Set<RoomListener>>();
  /** Listeners of the signed-in user's own room. */
  private readonly userListeners = new Set<RoomListener>();
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private isStopped = false;

  subscribe(projectId: string, listener: RoomListener): () => void {
    let listeners = this.rooms.get(projectId);
    if (!listeners) {
      listeners = new Set();
      this.rooms.set(projectId, listeners);
      this.send({ type: "join", projectId });
    }
    listeners.add(listener);
    this.isStopped = false;
    this.ensureOpen();
    return () => {
      const current = this.rooms.get(projectId);
      current?.delete(listener);
      if (current?.size === 0) {
        this.rooms.delete(projectId);
        this.send({ type: "leave", projectId });
      }
      if (!this.isWanted()) this.close();
    };
  }

  /** The signed-in user's own room: joined by the server for every socket, so only listening is needed. */
  subscribeUser(listener: RoomListener): () => void {
    this.userListeners.add(listener);
    this.isStopped = false;
    this.ensureOpen();
    return () => {
      this.userListeners.delete(listener);
      if (!this.isWanted()) this.close();
    };
  }

  private isWanted(): boolean {
    return this.rooms.size > 0 || this.userListeners.size > 0;
  }

  private ensureOpen(): void {
    if (this.socket || this.retryTimer) return;
    const url = new URL("/api/realtime", window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    this.socket = socket;
    let pingTimer: ReturnType<typeof setInterval> | undefined;
    socket.onopen = () => {
      this.attempt = 0;
      for (const projectId of this.rooms.keys()) this.send({ type: "join", projectId });
      pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    socket.onmessage = (message) => this.handle(message.data);
    socket.onclose = (event) => {
      clearInterval(pingTimer);
      // A socket closed on purpose and already replaced has nothing more to do.
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.isStopped || !this.isWanted() || FINAL_CLOSE_CODES.has(event.code)) return;
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt++);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.ensureOpen();
      }, delay);
    };
  }

  /** Back online: retry at once instead of waiting out the backoff. */
  retryNow(): void {
    if (this.socket || !this.isWanted()) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempt = 0;
    this.ensureOpen();
  }

  private handle(data: unknown): void {
    let message: RealtimeServerMessage;
    try {
      message = JSON.parse(String(data)) as RealtimeServerMessage;
    } catch {
      return;
    }
    // "joined": (re)joined, something may have been missed. "left" without asking: the server took
    // us out of the room (access removed, project deleted) — refetching shows the user why.
    if (message.type === "joined" || message.type === "left") {
      for (const listener of this.rooms.get(message.projectId) ?? []) listener.onResync();
    } else if (message.type === "ready") {
      for (const listener of this.userListeners) listener.onResync();
    } else if (message.type === "event") {
      const listeners = message.room.startsWith("user:")
        ? this.userListeners
        : this.rooms.get(message.room.replace(/^project:/, ""));
      for (const listener of listeners ?? []) listener.onEvent(message.event);
    }
  }

  private send(message: RealtimeClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private close(): void {
    this.isStopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.socket?.close(1000);
    this.socket = null;
  }
}

let connection: RealtimeConnection | null = null;

export function realtime(): RealtimeConnection {
  if (!connection) {
    connection = new RealtimeConnection();
    const current = connection;
    window.addEventListener("online", () => current.retryNow());
  }
  return connection;
}
