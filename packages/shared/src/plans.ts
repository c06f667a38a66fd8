/**
 * The plan catalog (SPEC §9) and the one rule that turns what a user holds — a privilege, a lifetime
 * deal, a partner plan, subscriptions from either payment provider — into what they may do, per product
 * (SPEC §4 free and paid rules, §6 plan-gated features). Pure: the server computes entitlements with it
 * inside the transaction that acts, the web shows what the server sent.
 */
import { z } from "zod";
import { type Limits, PRODUCTS, type Product, UNLIMITED } from "./limits.ts";

/** What a plan allows, per product. -1 is unlimited. */
export const entitlementsSchema = z.strictObject({
  projects: z.number(),
  /** Pages per project. */
  pages: z.number(),
  /** People a project may be shared with (its members besides the owner). */
  collaborators: z.number(),
  tickets: z.number(),
  videoMinutes: z.number(),
  storageGb: z.number(),
  /** SPEC §6 plan-gated features. */
  guestCommenting: z.boolean(),
  integrations: z.boolean(),
  branding: z.boolean(),
  customDomain: z.boolean(),
  webApp: z.boolean(),
});
export type Entitlements = z.infer<typeof entitlementsSchema>;

export type PlanTier = "free" | "standard" | "pro" | "team";
export type BillingInterval = "monthly" | "yearly";

export interface CatalogPlan {
  product: Product;
  tier: PlanTier;
  name: string;
  /** Whole dollars. */
  price: Record<BillingInterval, number>;
  entitlements: Entitlements;
}

const U = UNLIMITED;
const GATED_OFF = {
  guestCommenting: false,
  integrations: false,
  branding: false,
  customDomain: false,
  webApp: false,
} as const;
const GATED_ON = {
  guestCommenting: true,
  integrations: true,
  branding: false,
  customDomain: false,
  webApp: true,
} as const;

export const UNLIMITED_ENTITLEMENTS: Entitlements = {
  projects: U,
  pages: U,
  collaborators: U,
  tickets: U,
  videoMinutes: U,
  storageGb: U,
  guestCommenting: true,
  integrations: true,
  branding: true,
  customDomain: true,
  webApp: true,
};

/** Team: unlimited everything, branding and a custom domain included (SPEC §6, §9). */
function teamPlan(product: Product): CatalogPlan {
  return {
    product,
    tier: "team",
    name: "Team",
    price: { monthly: 240, yearly: 2880 },
    entitlements: UNLIMITED_ENTITLEMENTS,
  };
}

export const PLANS: Record<Product, Record<PlanTier, CatalogPlan>> = {
  web: {
    free: {
      product: "web",
      tier: "free",
      name: "Free",
      price: { monthly: 0, yearly: 0 },
      entitlements: {
        projects: 1,
        pages: 5,
        collaborators: 5,
        tickets: 0,
        videoMinutes: 0,
        storageGb: 1,
        ...GATED_OFF,
      },
    },
    standard: {
      product: "web",
      tier: "standard",
      name: "Standard",
      price: { monthly: 15, yearly: 180 },
      entitlements: {
        projects: 2,
        pages: U,
        collaborators: 10,
        tickets: 0,
        videoMinutes: 10,
        storageGb: 30,
        ...GATED_ON,
      },
    },
    pro: {
      product: "web",
      tier: "pro",
      name: "Pro",
      price: { monthly: 40, yearly: 480 },
      entitlements: {
        projects: U,
        pages: U,
        collaborators: 20,
        tickets: 0,
        videoMinutes: 10,
        storageGb: 150,
        ...GATED_ON,
      },
    },
    team: teamPlan("web"),
  },
  browse: {
    free: {
      product: "browse",
      tier: "free",
      name: "Free",
      price: { monthly: 0, yearly: 0 },
      entitlements: {
        projects: 2,
        pages: 5,
        collaborators: 5,
        tickets: 20,
        videoMinutes: 1,
        storageGb: 1,
        ...GATED_OFF,
        guestCommenting: true,
      },
    },
    standard: {
      product: "browse",
      tier: "standard",
      name: "Standard",
      price: { monthly: 39, yearly: 468 },
      entitlements: {
        projects: U,
        pages: U,
        collaborators: 10,
        tickets: U,
        videoMinutes: 10,
        storageGb: 30,
        ...GATED_ON,
      },
    },
    pro: {
      product: "browse",
      tier: "pro",
      name: "Pro",
      price: { monthly: 79, yearly: 948 },
      entitlements: {
        projects: U,
        pages: U,
        collaborators: 20,
        tickets: U,
        videoMinutes: 10,
        storageGb: 150,
        ...GATED_ON,
      },
    },
    team: teamPlan("browse"),
  },
};

/** Lifetime-deal tiers (SPEC §9): price in dollars, projects and users (collaborators). */
export const LIFETIME_TIERS = {
  1: { price: 49, entitlements: { ...PLANS.web.pro.entitlements, projects: 10, collaborators: 1 } },
  2: { price: 109, entitlements: { ...PLANS.web.pro.entitlements, projects: U, collaborators: 5 } },
  3: {
    price: 179,
    entitlements: { ...PLANS.web.pro.entitlements, projects: U, collaborators: U, branding: true },
  },
} as const satisfies Record<1 | 2 | 3, { price: number; entitlements: Entitlements }>;
export type LifetimeTier = keyof typeof LIFETIME_TIERS;

/** Partner-deal plans A–D (SPEC §9); D also has a custom domain (CNAME) and branding. */
export const PARTNER_PLANS = {
  A: { ...PLANS.web.pro.entitlements, projects: U, collaborators: 3, videoMinutes: 5, storageGb: 25 },
  B: { ...PLANS.web.pro.entitlements, projects: U, collaborators: 10, videoMinutes: 5, storageGb: 50 },
  C: { ...PLANS.web.pro.entitlements, projects: U, collaborators: 20, videoMinutes: 10, storageGb: 100 },
  D: {
    ...PLANS.web.pro.entitlements,
    projects: U,
    collaborators: 50,
    videoMinutes: 10,
    storageGb: 300,
    branding: true,
    customDomain: true,
  },
} as const satisfies Record<"A" | "B" | "C" | "D", Entitlements>;
export type PartnerPlan = keyof typeof PARTNER_PLANS;

/** Browse plan ids start with this prefix (SPEC §4: "browse plan ids start with a browse prefix"). */
export const BROWSE_PLAN_PREFIX = "browse-";
/** Discount variants exist for Standard and Pro (SPEC §9), e.g. `pro-yearly-30off`. */
export const DISCOUNTS = [15, 20, 30] as const;
export type Discount = (typeof DISCOUNTS)[number];

export interface PlanId {
  product: Product;
  tier: Exclude<PlanTier, "free">;
  interval: BillingInterval;
  discount: Discount | null;
  /** Team plans bought from the second provider carry quantity × 5 (SPEC §4). */
  seats: number | null;
}

const PLAN_ID = /^(browse-)?(standard|pro|team)-(monthly|yearly)(?:-(15|20|30)off)?(?:-x(\d{1,4}))?$/;

/** Reads a plan id (`pro-yearly`, `browse-standard-monthly`, `pro-yearly-30off`, `team-monthly-x10`); null if unknown. */
export function parsePlanId(id: string): PlanId | null {
  const match = PLAN_ID.exec(id);
  if (!match) return null;
  const tier = match[2] as PlanId["tier"];
  const discount = match[4] ? (Number(match[4]) as Discount) : null;
  if (discount !== null && tier === "team") return null;
  const seats = match[5] ? Number(match[5]) : null;
  if (seats !== null && (tier !== "team" || seats < 1)) return null;
  return {
    product: match[1] ? "browse" : "web",
    tier,
    interval: match[3] as BillingInterval,
    discount,
    seats,
  };
}

export function planIdOf(plan: Omit<PlanId, "seats"> & { seats?: number | null }): string {
  return (
    (plan.product === "browse" ? BROWSE_PLAN_PREFIX : "") +
    `${plan.tier}-${plan.interval}` +
    (plan.discount ? `-${plan.discount}off` : "") +
    (plan.seats ? `-x${plan.seats}` : "")
  );
}

/** Promo codes (SPEC §9): 30 % off yearly Pro (web and browse), 20 % off yearly Standard, 15 % off monthly. */
export function promoDiscount(plan: Pick<PlanId, "tier" | "interval">): Discount | null {
  if (plan.tier === "team") return null;
  if (plan.interval === "monthly") return 15;
  return plan.tier === "pro" ? 30 : 20;
}

/** Price in whole dollars of a plan id, after its discount. */
export function planPrice(plan: PlanId): number {
  const base = PLANS[plan.product][plan.tier].price[plan.interval] * (plan.seats ? plan.seats / 5 : 1);
  return plan.discount ? Math.round(base * (100 - plan.discount)) / 100 : base;
}

/** Subscription statuses that hold a plan (SPEC §4: a subscription counts as current). */
export const CURRENT_STATUSES = ["active", "trialing", "past_due", "incomplete"] as const;
/** Every status a subscription may be in (the card provider's words; PayPal's are mapped onto them). */
export const SUBSCRIPTION_STATUSES = [
  ...CURRENT_STATUSES,
  "unpaid",
  "canceled",
  "incomplete_expired",
  "paused",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface HeldSubscription {
  planId: string;
  status: SubscriptionStatus;
  /** The second provider's subscriptions count as active (SPEC §4). */
  provider: "card" | "second";
  /** SPEC §4: a payment intent needs the customer (requires_action or requires_payment_method). */
  paymentIssue?: boolean;
}

/** Everything that can give a user a plan. */
export interface PlanSources {
  privilege: string | null;
  lifetimeDeal: { isDisabled: boolean; invoices: { plan: string }[] } | null;
  partnerPlan: string | null;
  subscriptions: HeldSubscription[];
}

export const resolvedPlanSchema = z.strictObject({
  product: z.enum(PRODUCTS),
  /** The plan that gives the most, for display ('Free', 'Pro', 'Lifetime tier 2', 'Partner plan D', …). */
  name: z.string(),
  entitlements: entitlementsSchema,
  /** SPEC §4 free plan: nothing held. */
  isFree: z.boolean(),
  /** Upsells hidden: a lifetime deal or a privilege, or plans switched off (SPEC §6). */
  hideUpsells: z.boolean(),
});
export type ResolvedPlan = z.infer<typeof resolvedPlanSchema>;

const isCurrent = (subscription: HeldSubscription, product: Product) => {
  const plan = parsePlanId(subscription.planId);
  if (!plan || plan.product !== product) return false;
  return (
    subscription.provider === "second" ||
    (CURRENT_STATUSES as readonly string[]).includes(subscription.status)
  );
};

/** A privilege is a plan id or a tier name (`team`, `pro`) granting that tier in every product. */
function privilegeTier(privilege: string): Exclude<PlanTier, "free"> | null {
  const parsed = parsePlanId(privilege);
  if (parsed) return parsed.tier;
  return privilege === "standard" || privilege === "pro" || privilege === "team" ? privilege : null;
}

function lifetimeTierOf(deal: PlanSources["lifetimeDeal"]): LifetimeTier | null {
  if (!deal || deal.isDisabled) return null;
  let best: LifetimeTier | null = null;
  for (const invoice of deal.invoices) {
    const match = /tier[_-]?([123])/i.exec(invoice.plan);
    const tier = match ? (Number(match[1]) as LifetimeTier) : null;
    if (tier && (!best || tier > best)) best = tier;
  }
  return best;
}

const larger = (a: number, b: number) => (a === U || b === U ? U : Math.max(a, b));

/** The most of each entitlement across everything held. */
export function combineEntitlements(a: Entitlements, b: Entitlements): Entitlements {
  return {
    projects: larger(a.projects, b.projects),
    pages: larger(a.pages, b.pages),
    collaborators: larger(a.collaborators, b.collaborators),
    tickets: larger(a.tickets, b.tickets),
    videoMinutes: larger(a.videoMinutes, b.videoMinutes),
    storageGb: larger(a.storageGb, b.storageGb),
    guestCommenting: a.guestCommenting || b.guestCommenting,
    integrations: a.integrations || b.integrations,
    branding: a.branding || b.branding,
    customDomain: a.customDomain || b.customDomain,
    webApp: a.webApp || b.webApp,
  };
}

/**
 * What a user may do in a product. With plans switched off (a self-hosted instance), everything is
 * unlimited and no upsell shows.
 */
export function resolvePlan(sources: PlanSources, product: Product, plansEnabled = true): ResolvedPlan {
  if (!plansEnabled)
    return {
      product,
      name: "Unlimited",
      entitlements: UNLIMITED_ENTITLEMENTS,
      isFree: false,
      hideUpsells: true,
    };
  const held: { name: string; entitlements: Entitlements }[] = [];
  for (const subscription of sources.subscriptions) {
    if (!isCurrent(subscription, product)) continue;
    const plan = parsePlanId(subscription.planId)!;
    held.push({ name: PLANS[product][plan.tier].name, entitlements: PLANS[product][plan.tier].entitlements });
  }
  const privileged = sources.privilege ? privilegeTier(sources.privilege) : null;
  if (privileged)
    held.push({
      name: PLANS[product][privileged].name,
      entitlements: PLANS[product][privileged].entitlements,
    });
  const lifetime = product === "web" ? lifetimeTierOf(sources.lifetimeDeal) : null;
  if (lifetime)
    held.push({ name: `Lifetime tier ${lifetime}`, entitlements: LIFETIME_TIERS[lifetime].entitlements });
  const partner =
    product === "web" && sources.partnerPlan && sources.partnerPlan in PARTNER_PLANS
      ? (sources.partnerPlan as PartnerPlan)
      : null;
  if (partner) held.push({ name: `Partner plan ${partner}`, entitlements: PARTNER_PLANS[partner] });

  const free = PLANS[product].free;
  if (held.length === 0)
    return { product, name: free.name, entitlements: free.entitlements, isFree: true, hideUpsells: false };
  // Named after the plan that gives the most projects, then collaborators.
  const rank = (e: Entitlements) =>
    (e.projects === U ? 1e9 : e.projects) * 1e6 + (e.collaborators === U ? 1e5 : e.collaborators);
  held.sort((a, b) => rank(b.entitlements) - rank(a.entitlements));
  return {
    product,
    name: held[0]!.name,
    entitlements: held.reduce((all, plan) => combineEntitlements(all, plan.entitlements), free.entitlements),
    isFree: false,
    hideUpsells: Boolean(privileged || lifetime),
  };
}

/** '/projects' shows 'Get unlimited projects. Upgrade now' on a plan with limited projects (SPEC §2, §6). */
export function showsProjectUpsell(plan: ResolvedPlan): boolean {
  return plan.entitlements.projects !== UNLIMITED && !plan.hideUpsells;
}

/** The profile menu's Offers item: only without a paid or privileged plan, with limited projects (SPEC §2). */
export function showsOffers(plan: ResolvedPlan): boolean {
  return plan.isFree && showsProjectUpsell(plan);
}

/**
 * The project and page limits that apply to a user with plans on: their own stored limits (SPEC §3
 * `limits`, which may have been raised for them) or what their plans give, whichever is larger.
 */
export function limitsWithPlans(stored: Limits | null | undefined, sources: PlanSources): Limits {
  const base = stored ?? limitsOf(PLANS.web.free.entitlements, PLANS.browse.free.entitlements);
  const web = resolvePlan(sources, "web").entitlements;
  const browse = resolvePlan(sources, "browse").entitlements;
  return {
    web: { projects: larger(base.web.projects, web.projects), pages: larger(base.web.pages, web.pages) },
    browse: {
      projects: larger(base.browse.projects, browse.projects),
      pages: larger(base.browse.pages, browse.pages),
    },
  };
}

/** The per-product project and page limits stored on the user (SPEC §3 `limits`), from their plans. */
export function limitsOf(web: Entitlements, browse: Entitlements): Limits {
  return {
    web: { projects: web.projects, pages: web.pages },
    browse: { projects: browse.projects, pages: browse.pages },
  };
}

/** What a 402 carries: which limit, in which product, and its value. */
export interface PlanLimitDetail {
  kind: "projects" | "pages" | "collaborators" | "tickets" | "videoMinutes" | "storage" | "feature";
  product: Product;
  limit: number;
}

/** Supported checkout currencies (SPEC §9). */
export const SUPPORTED_CURRENCIES = [
  "AUD",
  "BRL",
  "CAD",
  "CNY",
  "CZK",
  "DKK",
  "EUR",
  "HKD",
  "HUF",
  "ILS",
  "JPY",
  "MYR",
  "MXN",
  "TWD",
  "NZD",
  "NOK",
  "PHP",
  "PLN",
  "GBP",
  "RUB",
  "SGD",
  "SEK",
  "CHF",
  "THB",
  "USD",
] as const;
export type Currency = (typeof SUPPORTED_CURRENCIES)[number];

/** Currencies whose amounts have no minor unit (SPEC §9). */
export const ZERO_DECIMAL_CURRENCIES = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);

/** An amount in the currency's minor unit (cents), or in whole units for a zero-decimal currency. */
export function toMinorUnits(amount: number, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency.toLowerCase()) ? Math.round(amount) : Math.round(amount * 100);
}

/** "$480.00", "¥4,800" — zero-decimal currencies without decimals. */
export function formatPrice(amount: number, currency: string, locale = "en-US"): string {
  const zero = ZERO_DECIMAL_CURRENCIES.has(currency.toLowerCase());
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: zero ? 0 : 2,
    maximumFractionDigits: zero ? 0 : 2,
  }).format(amount);
}

/**
 * What this build of Redline can do among the things plans sell — the one switch, served in GET /api/config
 * (`features`). A screen never promises what the product does not do: plan cards and upgrade prompts list
 * video minutes only once video comments exist (issue #33), and integrations once they exist (issue #30);
 * illustration projects are created, listed and counted only once the slide editor exists. The
 * entitlements themselves stay as SPEC §9 sizes them.
 */
export const SHIPPED_FEATURES = { videoComments: true, integrations: false, slideEditor: true } as const;
export type ShippedFeatures = { readonly [K in keyof typeof SHIPPED_FEATURES]: boolean };

/** The project types that can be made here: illustration only with the slide editor. */
export function creatableTypes<T extends string>(
  types: readonly T[],
  features: Pick<ShippedFeatures, "slideEditor"> = SHIPPED_FEATURES,
): T[] {
  return types.filter((type) => type !== "illustration" || features.slideEditor);
}
