/**
 * Product analytics (SPEC §7): the events the app records, and the one validated shape in which the browser
 * reports its own (view switches, the offer bar, an upgrade started, the free-text `user-event` log).
 */
import { z } from "zod";

/** Every event name SPEC §7 lists. */
export const ANALYTICS_EVENTS = [
  "NewComment",
  "NewEdit",
  "NewProject",
  "NewTeam",
  "SignIn",
  "SignUp",
  "SwitchView",
  "UpgradeCompleted",
  "UpgradeFailed",
  "UpgradeInitiated",
  "GrabDealClicked",
  "GrabDealClosed",
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number];

/** The events only the browser sees; the others are recorded by the server from the writes that cause them. */
export const CLIENT_ANALYTICS_EVENTS = [
  "SwitchView",
  "UpgradeInitiated",
  "UpgradeFailed",
  "GrabDealClicked",
  "GrabDealClosed",
] as const satisfies readonly AnalyticsEventName[];

const propertyValue = z.union([z.string().max(200), z.number().finite(), z.boolean(), z.null()]);

export const analyticsEventSchema = z.strictObject({
  event: z.enum(CLIENT_ANALYTICS_EVENTS),
  /** A few flat facts (e.g. `{ view: "board" }`); no nesting, so nothing large or personal rides along. */
  properties: z
    .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/), propertyValue)
    .refine((value) => Object.keys(value).length <= 10, "At most 10 properties.")
    .default({}),
});
export type AnalyticsEventInput = z.infer<typeof analyticsEventSchema>;

/** SPEC §7 `POST /user-event`: one line of free text for the event log. */
export const userEventSchema = z.strictObject({ text: z.string().trim().min(1).max(500) });
