/** GET /api/config: which sign-in options this deployment offers (one query with the product's hosts). */
export { usePublicConfig as useConfig } from "../../lib/use-product.ts";
