/**
 * What the stub hands the lazy chunks (one object, no globals): its config, the ring buffers, the shadow
 * root the UI lives in, how to load another chunk and how to send a report (queued when it cannot go).
 */
import type { TicketReport, WidgetReportAnswer } from "@redline/shared";

export interface WidgetConfig {
  key: string;
  /** The app's origin, where reports go. */
  api: string;
  /** Where the chunks are served from (ends with "/"). */
  base: string;
  trigger: "button" | "hidden";
  /** The site opted in to session replay (`data-replay="true"`): the recorder runs from page load. */
  replay: boolean;
}

export type ConsoleEntry = TicketReport["console"][number];
export type FailedRequest = TicketReport["failedRequests"][number];

export interface Buffers {
  console: ConsoleEntry[];
  requests: FailedRequest[];
}

export interface Reporter {
  name: string;
  email: string;
}

/** What goes to the intake: the `report` field as sent, and the files. */
export interface Outgoing {
  report: {
    key: string;
    title: string;
    note: string;
    reporter: Reporter;
    report: TicketReport;
  };
  /** A PNG data URL (kept as text so it survives in the offline queue). */
  screenshot: string | null;
  /** rrweb events, JSON. */
  replay: string | null;
}

/** Where and with what a sent report's recording is uploaded (the intake's answer). */
export type VideoGrant = WidgetReportAnswer["video"];

export type SendResult =
  | { status: "sent"; number: number; video: VideoGrant | null }
  | { status: "queued" }
  | { status: "refused"; message: string };

/** The replay chunk's recorder, started at page load on opted-in sites. */
export interface Recorder {
  /** The events of the last two minutes at least (from a full snapshot), JSON; null when too large. */
  take(): string | null;
  stop(): void;
}

/** A screen recording made by the record chunk, kept in memory until its report is sent. */
export interface Recording {
  blob: Blob;
  seconds: number;
  /** Uploads it as the sent report's video; `onProgress` gets 0–1. Rejects with a plain reason. */
  upload(grant: VideoGrant, onProgress: (fraction: number) => void): Promise<void>;
}

export interface ChunkName {
  reporter: string;
  queue: string;
  screenshot: string;
  replay: string;
  record: string;
}

export interface WidgetHost {
  config: WidgetConfig;
  buffers: Buffers;
  /** The shadow root under `<redline-widget>`. */
  root: ShadowRoot;
  /** The `<redline-widget>` element (hidden while a screenshot is taken). */
  element: HTMLElement;
  // biome-ignore lint/suspicious/noExplicitAny: a chunk's module namespace; each caller knows its exports.
  load<K extends keyof ChunkName>(name: K): Promise<any>;
  recorder(): Recorder | null;
  send(outgoing: Outgoing): Promise<SendResult>;
  /** The launcher shows again (the reporter closed). */
  closed(): void;
}
