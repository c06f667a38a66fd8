import { PRODUCTS, resolvePlan, storageLimitBytes, type User } from "@redline/shared";
import type { UserRow } from "../../db/schema/index.ts";
import { activePrivilege, limitsFor, planSourcesOf } from "../plans/plans.ts";
import type { CountedUser } from "./counters.ts";

/**
 * `counters` and storage used as counted by the database (countersOf); without them, the row's stored
 * counters. The storage limit is the plans' (`storageGb`).
 */
export function presentUser(row: UserRow, plansEnabled: boolean, counted?: CountedUser): User {
  const sources = planSourcesOf(row);
  const plans = Object.fromEntries(
    PRODUCTS.map((product) => [product, resolvePlan(sources, product, plansEnabled)]),
  ) as User["plans"];
  return {
    uid: row.id,
    displayName: row.displayName,
    email: row.email,
    emailVerified: row.emailVerified,
    pendingEmail: row.pendingEmail,
    phoneNumber: row.phoneNumber,
    photoURL: row.photoURL,
    createdAt: row.createdAt.toISOString(),
    signupSource: row.signupSource,
    onboarding: row.onboarding,
    emailPreferences: row.emailPreferences,
    notificationSound: row.notificationSound,
    isDeleted: row.isDeleted,
    isAnonymous: row.isAnonymous,
    privilege: activePrivilege(row),
    partnerPlan: row.partnerPlan,
    limits: limitsFor(row, plansEnabled),
    counters: counted
      ? {
          projectsCount: counted.projectsCount,
          projectPagesCount: counted.projectPagesCount,
          projectShareCount: counted.projectShareCount,
          projectEditorsCount: counted.projectEditorsCount,
          projectsEditors: counted.projectsEditors,
        }
      : {
          projectsCount: row.projectsCount,
          projectPagesCount: row.projectPagesCount,
          projectShareCount: row.projectShareCount,
          projectEditorsCount: row.projectEditorsCount,
          projectsEditors: row.projectsEditors,
        },
    connected: { slack: row.slackConnected, trello: row.trelloConnected, asana: row.asanaConnected },
    storage: Object.fromEntries(
      PRODUCTS.map((product) => [
        product,
        { used: counted?.storageUsed[product] ?? 0, limit: storageLimitBytes(plans[product].entitlements) },
      ]),
    ) as User["storage"],
    plans,
    paymentIssue: plansEnabled && row.heldSubscriptions.some((held) => held.paymentIssue === true),
  };
}
