/** Per-product limits (SPEC §3, §5, §9). -1 means unlimited. */
export const UNLIMITED = -1;
export const DEFAULT_PAGE_LIMIT = 5;
export const DEMO_PROJECT_MAX_PAGES = 5;

export const PRODUCTS = ["web", "browse"] as const;
export type Product = (typeof PRODUCTS)[number];

export interface ProductLimits {
  projects: number;
  pages: number;
}
export type Limits = Record<Product, ProductLimits>;

/** Free-plan limits: web 1 project, 5 pages; browse 2 projects, 5 pages per project. */
export const FREE_PLAN_LIMITS: Limits = {
  web: { projects: 1, pages: DEFAULT_PAGE_LIMIT },
  browse: { projects: 2, pages: DEFAULT_PAGE_LIMIT },
};

/** Everything unlimited: a self-hosted instance with plans switched off (PLANS_ENABLED=false). */
export const UNLIMITED_LIMITS: Limits = {
  web: { projects: UNLIMITED, pages: UNLIMITED },
  browse: { projects: UNLIMITED, pages: UNLIMITED },
};

/** The limits that apply: the user's own, or none at all when plans are switched off. */
export function effectiveLimits<T extends Limits | null | undefined>(
  limits: T,
  plansEnabled: boolean,
): T | Limits {
  return plansEnabled ? limits : UNLIMITED_LIMITS;
}

/** A project may be created while the limit is -1 or the owner's count of that product's projects is below it. */
export function canAddProject(projectLimit: number, projectCount: number): boolean {
  return projectLimit === UNLIMITED || projectCount < projectLimit;
}

/** A page may be added while the owner's limit is -1 or the count is below it (default 5). */
export function canAddPage(pageLimit: number | undefined, pageCount: number): boolean {
  const limit = pageLimit ?? DEFAULT_PAGE_LIMIT;
  return limit === UNLIMITED || pageCount < limit;
}

/** PostgreSQL's `integer` (int4) range: a number a client sends for such a column stays inside it. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;
