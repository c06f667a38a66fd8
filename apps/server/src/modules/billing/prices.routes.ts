/**
 * GET /api/billing/prices (SPEC §2 `/upgrade`: plans and prices in the visitor's currency): the currency
 * asked for, or the visitor's (visitor-currency.ts), and what each plan a card checkout sells costs in
 * it — the same amounts (packages/shared currencies.ts) the checkout's price charges.
 */
import {
  type BillingPrices,
  billingPricesQuerySchema,
  billingPricesSchema,
  dataAnswer,
  EXCHANGE_RATES,
  type PlanId,
  planIdOf,
  planPriceIn,
  promoDiscount,
  SUPPORTED_CURRENCIES,
} from "@redline/shared";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../lib/routes.ts";
import { visitorCurrency } from "./visitor-currency.ts";

/** Every plan a card checkout sells (both products, intervals and paid tiers) and its promo variant. */
function sellablePlans(): PlanId[] {
  const plans: PlanId[] = [];
  for (const product of ["web", "browse"] as const)
    for (const interval of ["monthly", "yearly"] as const)
      for (const tier of ["standard", "pro", "team"] as const) {
        const plan: PlanId = { product, tier, interval, discount: null, seats: null };
        const discount = promoDiscount(plan);
        plans.push(plan, ...(discount ? [{ ...plan, discount }] : []));
      }
  return plans;
}

export async function pricesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { geoCountryHeader } = ctx.config;

  app.get(
    "/api/billing/prices",
    route({
      summary: "The visitor's currency (or the one asked for) and every plan's price in it",
      query: billingPricesQuerySchema,
      action: "public",
      response: dataAnswer(billingPricesSchema),
    }),
    async (request, reply): Promise<{ data: BillingPrices }> => {
      const query = billingPricesQuerySchema.parse(request.query);
      const chosen = visitorCurrency(request, geoCountryHeader, query.currency);
      // The answer depends on who asks: no shared cache may hand one visitor's currency to another.
      reply.header("vary", ["accept-language", geoCountryHeader].filter(Boolean).join(", "));
      reply.header("cache-control", "private, no-cache");
      return {
        data: {
          ...chosen,
          currencies: SUPPORTED_CURRENCIES,
          ratesDate: EXCHANGE_RATES.date,
          prices: sellablePlans().map((plan) => ({
            planId: planIdOf(plan),
            amount: planPriceIn(plan, chosen.currency),
          })),
        },
      };
    },
  );
}
