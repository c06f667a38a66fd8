/**
 * The OAuth `state` a tracker's return route hands back: who started connecting which project to which
 * tracker, until when, signed with a key derived from AUTH_SECRET. The connect call refuses a state that is
 * forged, expired, for another tracker or started by someone else (a link sent to a victim connects nothing).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { TrackerType } from "@redline/shared";
import { BadRequestError } from "../../../lib/errors.ts";

const TTL_MS = 15 * 60 * 1000;

interface State {
  p: string;
  u: string;
  t: TrackerType;
  e: number;
  n: string;
}

const keyOf = (authSecret: string) =>
  createHmac("sha256", authSecret).update("redline tracker oauth state").digest();
const mac = (authSecret: string, body: string) =>
  createHmac("sha256", keyOf(authSecret)).update(body).digest("base64url");

export function signTrackerState(
  authSecret: string,
  input: { projectId: string; userId: string; tracker: TrackerType },
  now = Date.now(),
): string {
  const body = Buffer.from(
    JSON.stringify({
      p: input.projectId,
      u: input.userId,
      t: input.tracker,
      e: now + TTL_MS,
      n: randomBytes(8).toString("hex"),
    } satisfies State),
  ).toString("base64url");
  return `${body}.${mac(authSecret, body)}`;
}

/**
 * The project and person a valid state names, else a 400 (nothing connected). The caller checks the
 * person is themselves once the project's policy has had its say (who may not see it hears 404/403 first).
 */
export function readTrackerState(
  authSecret: string,
  state: string,
  tracker: TrackerType,
  now = Date.now(),
): { projectId: string; userId: string } {
  const [body, signature] = state.split(".");
  if (!body || !signature) throw invalidState();
  const given = Buffer.from(signature, "base64url");
  const wanted = Buffer.from(mac(authSecret, body), "base64url");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw invalidState();
  let parsed: State;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as State;
  } catch {
    throw invalidState();
  }
  if (parsed.t !== tracker || !(parsed.e > now)) throw invalidState();
  return { projectId: parsed.p, userId: parsed.u };
}

export const invalidState = () =>
  new BadRequestError("This connection link is not valid any more. Connect again.", "invalid-state");
