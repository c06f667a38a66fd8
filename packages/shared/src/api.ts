import type { PlanLimitDetail, ShippedFeatures } from "./plans.ts";
/** Small API contracts shared by server and web. */
export interface HealthResponse {
  status: "ok";
  database: "pglite" | "postgres";
}

/** GET /api/config: what the client needs to know about this deployment. */
export interface PublicConfig {
  googleSignIn: boolean;
  mailbox: boolean;
  /** The bug-tracking variant (SPEC §1): the host prefix that selects it, and the origins that serve each
   *  product when they are two hosts (null on a single-host install: the header switcher decides). */
  products: { browseHostPrefix: string; webUrl: string; browseUrl: string | null };
  /** Help → Support docs: this installation's documentation (DOCS_URL); null → the shipped guide at /help. */
  docsUrl?: string | null;
  /** What this build does among the things plans sell (SHIPPED_FEATURES): screens promise nothing else. */
  features: ShippedFeatures;
}

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

/** Every API error body. `code` is machine-readable ('auth/…' for authentication errors). */
export interface ApiErrorBody {
  error: string;
  code: string;
  message: string;
  /** With a 402: which plan limit refused the call (the UI shows the upgrade prompt). */
  limit?: PlanLimitDetail;
}
