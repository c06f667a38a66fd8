/**
 * Test data and a stand-in API for the billing screens' tests (imported by tests only): a session user,
 * billing answers, and a `fetch` that answers by method and path and records what was sent.
 */
import {
  type Billing,
  type BillingSubscription,
  PLANS,
  type ResolvedPlan,
  type SubscriptionAbilities,
  type User,
} from "@redline/shared";
import { vi } from "vitest";

export const NO_ABILITIES: SubscriptionAbilities = {
  canCancel: false,
  canUndoCancel: false,
  canUpdate: false,
  canCancelPendingUpdate: false,
};

export const FREE_PLAN: ResolvedPlan = {
  product: "web",
  name: "Free",
  entitlements: PLANS.web.free.entitlements,
  isFree: true,
  hideUpsells: false,
};

export const PRO_PLAN: ResolvedPlan = {
  product: "web",
  name: "Pro",
  entitlements: PLANS.web.pro.entitlements,
  isFree: false,
  hideUpsells: false,
};

export function user(plan: ResolvedPlan = FREE_PLAN, fields: Partial<User> = {}): User {
  return {
    uid: "u1",
    displayName: "Ada",
    email: "ada@example.com",
    emailVerified: true,
    plans: { web: plan, browse: { ...FREE_PLAN, product: "browse" } },
    paymentIssue: false,
    ...fields,
  } as User;
}

export function subscription(fields: Partial<BillingSubscription> = {}): BillingSubscription {
  return {
    id: "sub_1",
    provider: "card",
    planId: "pro-monthly",
    planName: "Pro (monthly)",
    product: "web",
    status: "active",
    cancelAtPeriodEnd: false,
    currentPeriodEnd: "2026-12-24T12:00:00.000Z",
    pendingUpdate: null,
    paymentIssue: false,
    amount: 4000,
    currency: "usd",
    abilities: NO_ABILITIES,
    ...fields,
  };
}

export function billing(fields: Partial<Billing> = {}): Billing {
  return {
    subscriptions: [],
    invoices: [],
    paymentMethod: null,
    paypal: null,
    paymentIssue: false,
    payUrl: null,
    canCheckout: true,
    ...fields,
  };
}

export interface StubResponse {
  status?: number;
  body: unknown;
}

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Stubs `fetch`: `routes` maps "METHOD /path" to an answer (or a function of the request body); anything
 * else is a 404. Returns the requests sent, in order.
 */
export function stubApi(
  routes: Record<string, StubResponse | ((body: unknown) => StubResponse | Promise<StubResponse>)>,
): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const path = String(input).split("?")[0]!;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    sent.push({ method, path, body });
    const route = routes[`${method} ${path}`];
    const answer = typeof route === "function" ? await route(body) : route;
    const { status = 200, body: json } = answer ?? {
      status: 404,
      body: { error: "Not Found", code: "not-found", message: "Not found" },
    };
    return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
  });
  return sent;
}
