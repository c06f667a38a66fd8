/**
 * The tab's realtime socket (`/api/realtime`, signed-in users only): one WebSocket shared by every
 * open view, joined to the rooms of the projects on screen; the server puts it in the user's own room
 * too (notifications). It reconnects with backoff after a drop and, each time the server confirms a
 * room (`joined`, or `ready` for the user's room), tells that room's listeners to resync — events sent
 * while the socket was away are not replayed, so views refetch what they show. A public link's guest has
 * its own socket (`guestRealtime()`, `/api/realtime?guest`, no session): it follows the guest's own
 * conversation in a project (`subscribeGuest`) and the comments the link shows (topic "comments"),
 * resyncing the same way.
 */
import {
  type GuestTopic,
  REALTIME_RESTART_CLOSE,
  type RealtimeClientMessage,
  type RealtimeEvent,
  type RealtimeServerMessage,
} from "@redline/shared";

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
  /**
   * Guest sockets, per topic and project (`comments:{projectId}`, `conversation:{projectId}`): the guest's
   * own conversation, or the link's comments, joined with the guest key.
   */
  private readonly guestRooms = new Map<
    string,
    { projectId: string; topic: GuestTopic; key: string; listeners: Set<RoomListener> }
  >();

  constructor(private readonly path = "/api/realtime") {}

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

  /**
   * A guest socket's own conversation in a project, or (`topic` "comments") the comments its link shows
   * (`guestRealtime()` only). Events of both arrive as room `guest:{projectId}`: listeners pick theirs.
   */
  subscribeGuest(
    projectId: string,
    key: string,
    listener: RoomListener,
    topic: GuestTopic = "conversation",
  ): () => void {
    const id = `${topic}:${projectId}`;
    let room = this.guestRooms.get(id);
    if (!room) {
      room = { projectId, topic, key, listeners: new Set() };
      this.guestRooms.set(id, room);
      this.send(guestJoin(room));
    }
    room.listeners.add(listener);
    this.isStopped = false;
    this.ensureOpen();
    return () => {
      const current = this.guestRooms.get(id);
      current?.listeners.delete(listener);
      if (current?.listeners.size === 0) {
        this.guestRooms.delete(id);
        this.send({ type: "guest.leave", projectId, ...(topic === "comments" && { topic }) });
      }
      if (!this.isWanted()) this.close();
    };
  }

  private isWanted(): boolean {
    return this.rooms.size > 0 || this.userListeners.size > 0 || this.guestRooms.size > 0;
  }

  private ensureOpen(): void {
    if (this.socket || this.retryTimer) return;
    const url = new URL(this.path, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    this.socket = socket;
    let pingTimer: ReturnType<typeof setInterval> | undefined;
    socket.onopen = () => {
      this.attempt = 0;
      for (const projectId of this.rooms.keys()) this.send({ type: "join", projectId });
      for (const room of this.guestRooms.values()) this.send(guestJoin(room));
      pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    socket.onmessage = (message) => this.handle(message.data);
    socket.onclose = (event) => {
      clearInterval(pingTimer);
      // A socket closed on purpose and already replaced has nothing more to do.
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.isStopped || !this.isWanted() || FINAL_CLOSE_CODES.has(event.code)) return;
      // A server stopping for a restart asks for a reconnect: at once (spread over half a second, so its
      // clients do not all arrive together), and the load balancer sends it to a process still running.
      const delay =
        event.code === REALTIME_RESTART_CLOSE.code
          ? Math.random() * 500
          : Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt++);
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
    } else if (message.type === "guest.joined" || message.type === "guest.left") {
      const room = this.guestRooms.get(`${message.topic ?? "conversation"}:${message.projectId}`);
      for (const listener of room?.listeners ?? []) listener.onResync();
    } else if (message.type === "ready") {
      for (const listener of this.userListeners) listener.onResync();
    } else if (message.type === "event") {
      const listeners = message.room.startsWith("user:")
        ? this.userListeners
        : message.room.startsWith("guest:")
          ? this.guestListeners(message.room.replace(/^guest:/, ""))
          : this.rooms.get(message.room.replace(/^project:/, ""));
      for (const listener of listeners ?? []) listener.onEvent(message.event);
    }
  }

  /** Every guest listener of a project, whatever its topic. */
  private guestListeners(projectId: string): RoomListener[] {
    return [...this.guestRooms.values()]
      .filter((room) => room.projectId === projectId)
      .flatMap((room) => [...room.listeners]);
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

/** A guest room's join: the conversation is the default topic, so its message stays as it was. */
function guestJoin(room: { projectId: string; topic: GuestTopic; key: string }): RealtimeClientMessage {
  const { projectId, topic, key } = room;
  return { type: "guest.join", projectId, key, ...(topic === "comments" && { topic }) };
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

let guestConnection: RealtimeConnection | null = null;

/** The socket of a public link's guest (no account): its own conversations and the link's comments. */
export function guestRealtime(): RealtimeConnection {
  if (!guestConnection) {
    guestConnection = new RealtimeConnection("/api/realtime?guest");
    const current = guestConnection;
    window.addEventListener("online", () => current.retryNow());
  }
  return guestConnection;
}
