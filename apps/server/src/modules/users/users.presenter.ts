import { PRODUCTS, resolvePlan, type User, type UserCounters } from "@redline/shared";
import type { UserRow } from "../../db/schema/index.ts";
import { limitsFor, planSourcesOf } from "../plans/plans.ts";

/** `counters` as counted by the database (countersOf); without them, the row's stored ones. */
export function presentUser(row: UserRow, plansEnabled: boolean, counted?: UserCounters): User {
  const sources = planSourcesOf(row);
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
    privilege: row.privilege,
    limits: limitsFor(row, plansEnabled),
    counters: counted ?? {
      projectsCount: row.projectsCount,
      projectPagesCount: row.projectPagesCount,
      projectShareCount: row.projectShareCount,
      projectEditorsCount: row.projectEditorsCount,
      projectsEditors: row.projectsEditors,
    },
    connected: { slack: row.slackConnected, trello: row.trelloConnected, asana: row.asanaConnected },
    plans: Object.fromEntries(
      PRODUCTS.map((product) => [product, resolvePlan(sources, product, plansEnabled)]),
    ) as User["plans"],
    paymentIssue: plansEnabled && row.heldSubscriptions.some((held) => held.paymentIssue === true),
  };
}
