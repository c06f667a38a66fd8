/** A project's tracker integration as the operations need it: the row, its config, its sealed secrets. */
import {
  TRACKER_MESSAGES,
  type TrackerDestination,
  type TrackerState,
  type TrackerType,
} from "@redline/shared";
import type { AppContext } from "../../../context.ts";
import type { ProjectIntegrationRow } from "../../../db/schema/index.ts";
import { HttpError, NotFoundError } from "../../../lib/errors.ts";
import { secretBox } from "../../../lib/secret-box.ts";
import { trackerFor } from "./index.ts";
import { isTrackerFailure, type Tracker, type TrackerSecrets } from "./tracker.ts";

/** What a tracker's row keeps in `config` (shown to the panel). */
export interface TrackerConfig {
  account: string | null;
  destination: TrackerDestination | null;
  autoCreate: boolean;
  /** GitHub: the merge gate (github.gate.ts). */
  mergeGate: boolean;
}

export function trackerConfigOf(row: Pick<ProjectIntegrationRow, "config">): TrackerConfig {
  const config = row.config as Partial<TrackerConfig>;
  return {
    account: config.account ?? null,
    destination: config.destination ?? null,
    autoCreate: config.autoCreate === true,
    mergeGate: config.mergeGate === true,
  };
}

export function trackerStateOf(row: ProjectIntegrationRow): TrackerState {
  const config = trackerConfigOf(row);
  return {
    isAuthorized: row.secrets !== null,
    ...config,
    needsReconnect: (row.config as { needsReconnect?: unknown }).needsReconnect === true,
  };
}

/** The same sealing as the webhook's secrets (integrations.load.ts), typed for a tracker. */
export function trackerSecrets(ctx: Pick<AppContext, "config">) {
  const box = secretBox(ctx.config.authSecret);
  return {
    seal: (secrets: TrackerSecrets) => box.seal(secrets),
    open: (row: Pick<ProjectIntegrationRow, "secrets">): TrackerSecrets =>
      row.secrets ? box.open<TrackerSecrets>(row.secrets) : {},
  };
}

export function requireTracker(ctx: Pick<AppContext, "config">, type: TrackerType): Tracker {
  const tracker = trackerFor(ctx.config, type);
  if (!tracker) throw new NotFoundError("This tracker is not offered on this server.", "tracker-not-offered");
  return tracker;
}

/** The tracker failed (down, rate-limited, token revoked): 502 with SPEC §8's text; Redline's side unchanged. */
export class TrackerUnavailableError extends HttpError {
  constructor() {
    super(502, "tracker-failed", TRACKER_MESSAGES.failed);
  }
}

/** Runs a call to the tracker, turning its failure into SPEC's 'Something went wrong' (502). */
export async function askTracker<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isTrackerFailure(error)) throw new TrackerUnavailableError();
    throw error;
  }
}
