/**
 * The one PayPal client: a small REST client over fetch (PayPal's v1 billing API, @redline/shared/paypal),
 * pointed at PayPal with credentials or at the embedded provider this same process serves under
 * /paypal-api (packages/stand-ins, src/paypal) when none are configured. An OAuth client-credentials token is
 * fetched once and reused until shortly before it expires (or the API refuses it).
 *
 * Our plans exist at PayPal as one catalog product and one billing plan per plan id without seats
 * (a team plan's unit is five seats: a subscription's quantity is seats / 5, SPEC §4); the plan's name
 * ends with our plan id in brackets, which is how a subscription's plan is read back.
 */
import { type PlanId, parsePlanId, planDisplayName, planIdOf, planPrice } from "@redline/shared";
import type {
  PaypalCreateSubscription,
  PaypalErrorBody,
  PaypalPlan,
  PaypalPlanSummary,
  PaypalProduct,
  PaypalSubscription,
  PaypalTransaction,
  PaypalTransmission,
} from "@redline/shared/paypal";
import type { AppConfig } from "../../env.ts";
import { selfUrl } from "../../lib/self-url.ts";

/** The catalog product every Redline plan belongs to (PayPal lets us choose its id). */
export const PAYPAL_PRODUCT_ID = "REDLINE-SUBSCRIPTIONS";
export const PAYPAL_CURRENCY = "USD";
const TIMEOUT_MS = 20_000;
/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

/** "Redline Pro (monthly) [pro-monthly]". */
export function paypalPlanName(plan: PlanId): string {
  const base = { ...plan, seats: null };
  return `Redline ${base.product === "browse" ? "Browse " : ""}${planDisplayName(base)} [${planIdOf(base)}]`;
}

/** Our plan id (without seats) in a PayPal plan's name, or null when the plan is not one of ours. */
export function planIdOfPaypalName(name: string): string | null {
  const planId = /\[([a-z0-9-]{1,64})\]$/.exec(name)?.[1] ?? null;
  const plan = planId ? parsePlanId(planId) : null;
  return plan && plan.discount === null && plan.seats === null ? planId : null;
}

/** A refusal or failure of PayPal's API (non-2xx), with PayPal's error name when it sent one. */
export class PaypalError extends Error {
  constructor(
    readonly status: number,
    readonly issue: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PaypalClientOptions {
  /** e.g. https://api-m.paypal.com, or the app's own address + /paypal-api. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
}

interface CallOptions {
  body?: unknown;
  /** A body already serialised (verify-webhook-signature carries the event's exact bytes). */
  rawBody?: string;
  query?: Record<string, string>;
  /** PayPal-Request-Id: the same id twice creates one object. */
  requestId?: string;
}

export class PaypalClient {
  private token: { value: string; expiresAt: number } | null = null;
  private tokenRequest: Promise<string> | null = null;
  /** Our plan id → PayPal's, found or created once per process. */
  private readonly plans = new Map<string, Promise<string>>();
  /** PayPal's plan id → ours (null: not one of ours). Plans are never renamed by us. */
  private readonly ourPlans = new Map<string, string | null>();

  constructor(private readonly options: PaypalClientOptions) {}

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    this.tokenRequest ??= this.requestToken().finally(() => {
      this.tokenRequest = null;
    });
    return this.tokenRequest;
  }

  private async requestToken(): Promise<string> {
    const { clientId, clientSecret } = this.options;
    const response = await fetch(`${this.options.baseUrl}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: "grant_type=client_credentials",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const data = (await response.json().catch(() => null)) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    } | null;
    if (!response.ok || !data?.access_token)
      throw new PaypalError(
        response.status,
        data?.error ?? "AUTHENTICATION_FAILURE",
        data?.error_description ?? "PayPal refused the client credentials.",
      );
    const lifetime = (data.expires_in ?? 0) * 1000;
    this.token = {
      value: data.access_token,
      expiresAt: Date.now() + Math.max(0, lifetime - TOKEN_MARGIN_MS),
    };
    return data.access_token;
  }

  /** One API call; a refused token is renewed and the call made once more. Non-2xx → PaypalError. */
  private async call<T>(
    method: string,
    path: string,
    options: CallOptions = {},
    retried = false,
  ): Promise<T> {
    const url = new URL(`${this.options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${await this.accessToken()}`,
        accept: "application/json",
        prefer: "return=representation",
        ...(body !== undefined && { "content-type": "application/json" }),
        ...(options.requestId && { "paypal-request-id": options.requestId }),
      },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.status === 401 && !retried) {
      await response.body?.cancel();
      this.token = null;
      return this.call(method, path, options, true);
    }
    const text = await response.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      throw new PaypalError(
        response.status,
        "INVALID_RESPONSE",
        `PayPal answered ${response.status}, not JSON.`,
      );
    }
    if (!response.ok) {
      const error = (data ?? {}) as Partial<PaypalErrorBody> & { error?: string };
      throw new PaypalError(
        response.status,
        error.name ?? error.error ?? "UNKNOWN_ERROR",
        error.message ?? `PayPal answered ${response.status}.`,
      );
    }
    return data as T;
  }

  createSubscription(input: PaypalCreateSubscription, requestId?: string): Promise<PaypalSubscription> {
    return this.call("POST", "/v1/billing/subscriptions", { body: input, requestId });
  }

  /** null when PayPal has no such subscription. */
  async getSubscription(id: string): Promise<PaypalSubscription | null> {
    try {
      return await this.call<PaypalSubscription>(
        "GET",
        `/v1/billing/subscriptions/${encodeURIComponent(id)}`,
      );
    } catch (error) {
      if (error instanceof PaypalError && error.status === 404) return null;
      throw error;
    }
  }

  async listTransactions(id: string, start: Date, end: Date): Promise<PaypalTransaction[]> {
    const list = await this.call<{ transactions?: PaypalTransaction[] }>(
      "GET",
      `/v1/billing/subscriptions/${encodeURIComponent(id)}/transactions`,
      { query: { start_time: start.toISOString(), end_time: end.toISOString() } },
    );
    return list?.transactions ?? [];
  }

  async cancelSubscription(id: string, reason: string): Promise<void> {
    await this.call("POST", `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, {
      body: { reason },
    });
  }

  /**
   * Asks PayPal whether a delivery is theirs, for our webhook. The event goes back as the exact bytes
   * received (`rawEvent`, valid JSON): PayPal checks a checksum of them.
   */
  async verifyWebhookSignature(transmission: PaypalTransmission, rawEvent: string): Promise<boolean> {
    const fields = { ...transmission, webhook_id: this.options.webhookId };
    const head = Object.entries(fields).map(
      ([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`,
    );
    const result = await this.call<{ verification_status?: string }>(
      "POST",
      "/v1/notifications/verify-webhook-signature",
      { rawBody: `{${head.join(",")},"webhook_event":${rawEvent}}` },
    );
    return result?.verification_status === "SUCCESS";
  }

  /** PayPal's plan for one of ours (without seats), found by name or created. */
  ensurePlan(planId: string): Promise<string> {
    const found = this.plans.get(planId);
    if (found) return found;
    const request = this.findOrCreatePlan(planId);
    this.plans.set(planId, request);
    request.catch(() => this.plans.delete(planId));
    return request;
  }

  /** Our plan id (without seats) of a PayPal plan, or null when it is not one of ours. */
  async planIdOf(paypalPlanId: string): Promise<string | null> {
    const known = this.ourPlans.get(paypalPlanId);
    if (known !== undefined) return known;
    let plan: PaypalPlan | null = null;
    try {
      plan = await this.call<PaypalPlan>("GET", `/v1/billing/plans/${encodeURIComponent(paypalPlanId)}`);
    } catch (error) {
      if (!(error instanceof PaypalError && error.status === 404)) throw error;
    }
    const ours = plan ? planIdOfPaypalName(plan.name) : null;
    this.ourPlans.set(paypalPlanId, ours);
    return ours;
  }

  private async findOrCreatePlan(planId: string): Promise<string> {
    const plan = parsePlanId(planId);
    if (!plan || plan.seats !== null || plan.discount !== null)
      throw new Error(`Not a PayPal plan: ${planId}`);
    await this.ensureProduct();
    const name = paypalPlanName(plan);
    for (let page = 1; page <= 50; page++) {
      const list = await this.call<{ plans?: PaypalPlanSummary[]; total_pages?: number }>(
        "GET",
        "/v1/billing/plans",
        {
          query: {
            product_id: PAYPAL_PRODUCT_ID,
            page_size: "20",
            page: String(page),
            total_required: "true",
          },
        },
      );
      const match = list?.plans?.find(
        (candidate) => candidate.name === name && candidate.status === "ACTIVE",
      );
      if (match) return this.remember(match.id, planId);
      if (!list?.plans?.length || page >= (list.total_pages ?? page)) break;
    }
    const created = await this.call<PaypalPlan>("POST", "/v1/billing/plans", {
      requestId: `redline-plan-${planId}`,
      body: {
        product_id: PAYPAL_PRODUCT_ID,
        name,
        description: `Redline ${planDisplayName(plan)}`,
        status: "ACTIVE",
        billing_cycles: [
          {
            frequency: { interval_unit: plan.interval === "yearly" ? "YEAR" : "MONTH", interval_count: 1 },
            tenure_type: "REGULAR",
            sequence: 1,
            total_cycles: 0,
            pricing_scheme: {
              fixed_price: { value: planPrice(plan).toFixed(2), currency_code: PAYPAL_CURRENCY },
            },
          },
        ],
        payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 1 },
        quantity_supported: plan.tier === "team",
      },
    });
    return this.remember(created.id, planId);
  }

  private remember(paypalPlanId: string, planId: string): string {
    this.ourPlans.set(paypalPlanId, planId);
    return paypalPlanId;
  }

  private async ensureProduct(): Promise<void> {
    const path = `/v1/catalogs/products/${PAYPAL_PRODUCT_ID}`;
    try {
      await this.call<PaypalProduct>("GET", path);
      return;
    } catch (error) {
      if (!(error instanceof PaypalError && error.status === 404)) throw error;
    }
    await this.call<PaypalProduct>("POST", "/v1/catalogs/products", {
      requestId: `redline-product-${PAYPAL_PRODUCT_ID}`,
      body: { id: PAYPAL_PRODUCT_ID, name: "Redline", type: "SERVICE", category: "SOFTWARE" },
    });
  }
}

/** null when this server takes no PayPal subscriptions (production without credentials). */
export function createPaypalClient(config: AppConfig): PaypalClient | null {
  const { paypal } = config;
  if (!paypal.clientId) return null;
  return new PaypalClient({
    baseUrl: paypal.apiUrl ?? `${selfUrl(config)}/paypal-api`,
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    webhookId: paypal.webhookId,
  });
}
