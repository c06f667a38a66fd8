import { z } from "zod";
import {
  DEFAULT_PAGE_LIMIT,
  DEMO_PROJECT_MAX_PAGES,
  INT4_MAX,
  INT4_MIN,
  type Limits,
  PRODUCTS,
  type Product,
  UNLIMITED,
} from "./limits.ts";

/** Project types (SPEC §3). */
export const PROJECT_TYPES = ["web", "webapp", "image", "illustration", "demo", "browse", "mobile"] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

export const DEFAULT_PROJECT_TITLE = "Untitled project";
/** New browse and webapp projects expire after 2 days (SPEC §9) unless the owner's project limit is -1. */
export const EXPIRING_PROJECT_TYPES: readonly ProjectType[] = ["browse", "webapp"];
export const PROJECT_EXPIRY_MS = 2 * 24 * 60 * 60 * 1000;

export function productOf(type: ProjectType): Product {
  return type === "browse" || type === "mobile" ? "browse" : "web";
}

/** The project types of a product (its projects count against that product's plan). */
export function projectTypesOf(product: Product): ProjectType[] {
  return PROJECT_TYPES.filter((type) => productOf(type) === product);
}

/**
 * The number of pages a project may hold: the demo project's fixed cap, else its owner's limit for the
 * project's product (default 5; -1 unlimited). The one place it is decided — the server sends it with
 * every project (`pageLimit`, `pagesLeft`) and enforces it when a page is added.
 */
export function pageLimitFor(type: ProjectType, ownerLimits: Limits | null | undefined): number {
  if (type === "demo") return DEMO_PROJECT_MAX_PAGES;
  return ownerLimits?.[productOf(type)]?.pages ?? DEFAULT_PAGE_LIMIT;
}

/** Pages that may still be added; null when unlimited. */
export function pagesLeft(pageLimit: number, pageCount: number): number | null {
  return pageLimit === UNLIMITED ? null : Math.max(0, pageLimit - pageCount);
}

/** Which viewer `/project/{id}` opens (SPEC §2). */
export function viewerOf(type: ProjectType): "review" | "board" | "slides" {
  if (type === "browse" || type === "mobile") return "board";
  if (type === "illustration") return "slides";
  return "review";
}

export function projectExpiresAt(type: ProjectType, createdAt: Date, ownerProjectLimit: number): Date | null {
  if (!EXPIRING_PROJECT_TYPES.includes(type) || ownerProjectLimit === UNLIMITED) return null;
  return new Date(createdAt.getTime() + PROJECT_EXPIRY_MS);
}

/**
 * SPEC §4: an expiring project (browse, webapp) past its time is read-only — viewed, not added to —
 * unless its owner's project limit has since become unlimited (an upgrade revives it).
 */
export function isProjectExpired(
  expiresAt: Date | null,
  ownerProjectLimit: number,
  now: Date = new Date(),
): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime() && ownerProjectLimit !== UNLIMITED;
}

/** 'Expired' when past, 'Expires in {n}m' under 60 minutes, else 'Expires in {n}h' (SPEC §4). */
export function expiryLabel(expiresAt: Date, now: Date = new Date()): string {
  const ms = expiresAt.getTime() - now.getTime();
  if (ms <= 0) return "Expired";
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `Expires in ${minutes}m`;
  return `Expires in ${Math.floor(minutes / 60)}h`;
}

export const ACCESSES = ["owner", "edit", "comment", "view"] as const;
export type Access = (typeof ACCESSES)[number];

/** 'Owner', else '{Access} access' (SPEC §4). */
export function accessLabel(access: Access): string {
  if (access === "owner") return "Owner";
  return `${access.charAt(0).toUpperCase()}${access.slice(1)} access`;
}

/** 'Free Plan', becoming 'Limit reached' when the page count reaches the plan's page limit. */
export function freePlanTag(pageCount: number, pageLimit: number = DEFAULT_PAGE_LIMIT): string | null {
  if (pageLimit === UNLIMITED) return null;
  return pageCount >= pageLimit ? "Limit reached" : "Free Plan";
}

/** Page-like only with no query string, no trailing '/' and no dot in the last segment (SPEC §5). */
export function isPageLikeUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.search !== "" || url.endsWith("?")) return false;
  if (url.endsWith("/")) return false;
  const lastSegment = parsed.pathname.split("/").pop() ?? "";
  return !lastSegment.includes(".");
}

export const PROJECT_SORTS = {
  modifiedAt: "Last updated",
  createdAt: "By date added",
  title: "By name",
  sortOrder: "By sort order",
} as const;
export type ProjectSort = keyof typeof PROJECT_SORTS;

/** The four lists of SPEC §2: /projects, /projects/web, /projects/illustration, /projects/archived. */
export const PROJECT_LISTS = ["all", "web", "illustration", "archived"] as const;
export type ProjectList = (typeof PROJECT_LISTS)[number];

export const projectListQuerySchema = z.object({
  list: z.enum(PROJECT_LISTS).default("all"),
  sort: z.enum(Object.keys(PROJECT_SORTS) as [ProjectSort, ...ProjectSort[]]).default("modifiedAt"),
  q: z.string().trim().max(200).optional(),
  /** The active team (SPEC §2 switcher): its projects are listed beside the reader's own. */
  teamId: z.string().min(1).max(64).optional(),
  /** The product the tab shows (SPEC §1): only its projects are listed. Unset: every product's. */
  product: z.enum(PRODUCTS).optional(),
});
export type ProjectListQuery = z.infer<typeof projectListQuerySchema>;

export const createProjectSchema = z
  .object({
    title: z.string().trim().max(200).optional(),
    type: z.enum(PROJECT_TYPES).default("web"),
    /** A team of the project's product the creator is a member of (SPEC §4: its members edit). */
    teamId: z.string().min(1).max(64).optional(),
  })
  .strict();

export const updateProjectSchema = z
  .object({
    title: z.string().trim().max(200),
    isArchived: z.boolean(),
    /** SPEC §3: the browser extension is not offered this project (its editors turn it off). */
    isPluginDisabled: z.boolean(),
    sortOrder: z.number().int().min(INT4_MIN).max(INT4_MAX),
    /** Move the project into one of the owner's teams, or out of its team (null). Owner only. */
    teamId: z.string().min(1).max(64).nullable(),
  })
  .partial()
  .strict();

const httpUrl = z
  .url({ protocol: /^https?$/, message: "Enter a web address starting with http:// or https://" })
  .max(2048);

export const addPageSchema = z
  .object({
    url: httpUrl,
    isScreenshot: z.boolean().default(false),
    title: z.string().trim().max(200).optional(),
  })
  .strict();

export const updatePageSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    sortOrder: z.number().int().min(INT4_MIN).max(INT4_MAX),
    isArchived: z.boolean(),
  })
  .partial()
  .strict();

/** Not in SPEC §8 (which has no text for archiving a page); worded like 'Page deleted.'. */
export const PAGE_ARCHIVE_MESSAGES = {
  archived: "Page archived.",
  unarchived: "Page unarchived.",
} as const;

export const updateVersionSchema = z.object({ title: z.string().trim().min(1).max(200) }).strict();

export const VERSION_KINDS = ["snapshot", "screenshot", "image", "pdf"] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];
export const VERSION_STATUSES = ["queued", "capturing", "ready", "failed"] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];

/**
 * What kept a page busy when its capture's budget ran out: its load event had not fired, requests were
 * still in flight, timers kept firing (polling), or each rendered frame started new loads.
 */
export const CAPTURE_BUSY_REASONS = ["load", "network", "timers", "rendering"] as const;
export type CaptureBusyReason = (typeof CAPTURE_BUSY_REASONS)[number];

export const versionSchema = z.strictObject({
  id: z.string(),
  pageId: z.string(),
  number: z.number().int(),
  title: z.string(),
  kind: z.enum(VERSION_KINDS),
  status: z.enum(VERSION_STATUSES),
  stage: z.string().nullable(),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  modifiedAt: z.string(),
  viewport: z.strictObject({ width: z.number(), height: z.number() }).nullable(),
  numberOfComments: z.number().int(),
  numberOfSuggestions: z.number().int(),
  /**
   * A capture taken when the page was still busy at the end of its settle budget, and with what
   * (see CaptureBusyReason); null when it was quiet, or the version is not a capture.
   */
  partialCapture: z.array(z.enum(CAPTURE_BUSY_REASONS)).nullable(),
});
export type Version = z.infer<typeof versionSchema>;

const BUSY_TEXT: Record<CaptureBusyReason, string> = {
  load: "it had not finished loading",
  network: "requests were still open",
  timers: "its scripts kept updating it",
  rendering: "it kept loading new content",
};

/** The viewer's note on a partial capture: what it shows and why. */
export function partialCaptureText(reasons: readonly CaptureBusyReason[]): string {
  const parts = reasons.map((reason) => BUSY_TEXT[reason]);
  const why =
    parts.length <= 1
      ? (parts[0] ?? "it was still busy")
      : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `Captured while the page was still busy (${why}): this is what it showed at that moment.`;
}

export const pageSchema = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  url: z.string(),
  title: z.string(),
  isPDF: z.boolean(),
  isArchived: z.boolean(),
  isApproved: z.union([z.strictObject({ uid: z.string(), date: z.string() }), z.literal(false)]),
  isDemo: z.boolean(),
  screenshotSource: z.string().nullable(),
  sortOrder: z.number().int(),
  thumbnail: z.string().nullable(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  numberOfVersions: z.number().int(),
  versions: z.array(versionSchema),
});
export type Page = z.infer<typeof pageSchema>;

export const projectAbilitiesSchema = z.strictObject({
  read: z.boolean(),
  update: z.boolean(),
  archive: z.boolean(),
  delete: z.boolean(),
  addPages: z.boolean(),
  updatePages: z.boolean(),
  deletePages: z.boolean(),
  manageMembers: z.boolean(),
  transfer: z.boolean(),
  /** Move the project into one of the owner's teams or out of its team (the owner). */
  moveToTeam: z.boolean(),
  manageApprovers: z.boolean(),
  /** Toggle page approval: editors, and the project's chosen approvers. */
  approvePages: z.boolean(),
  comment: z.boolean(),
  /** Attach files to comments (members who may comment; guests write text only). */
  attachFiles: z.boolean(),
  /** Inspect mode: save, hide, resolve and delete suggested edits (edit access). */
  suggestEdits: z.boolean(),
});
export type ProjectAbilities = z.infer<typeof projectAbilitiesSchema>;

export const projectSummarySchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  type: z.enum(PROJECT_TYPES),
  owner: z.string(),
  access: z.enum(ACCESSES),
  isArchived: z.boolean(),
  /** SPEC §3: the browser extension is not offered this project. */
  isPluginDisabled: z.boolean(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  /** When it expires (SPEC §4); null when it never will (or its owner's projects became unlimited). */
  expiresAt: z.string().nullable(),
  /** Past its expiry: read-only — its abilities allow reading, archiving and deleting only. */
  isExpired: z.boolean(),
  thumbnail: z.string().nullable(),
  sortOrder: z.number().int(),
  pageCount: z.number().int(),
  /** The project's page limit (see pageLimitFor; -1 unlimited). */
  pageLimit: z.number().int(),
  /** Pages that may still be added; null when unlimited. */
  pagesLeft: z.number().int().nullable(),
  /** The team the project belongs to (SPEC §4: its members edit), or null. */
  team: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  abilities: projectAbilitiesSchema,
});
export type ProjectSummary = z.infer<typeof projectSummarySchema>;

/** Public-link settings (SPEC §3 isShared). */
export const projectSharingSchema = z.strictObject({
  public: z.boolean(),
  canComment: z.boolean(),
  showAllPages: z.boolean(),
  showPageVersions: z.boolean(),
  showEdits: z.boolean(),
  hideDeviceToolbar: z.boolean(),
});
export type ProjectSharing = z.infer<typeof projectSharingSchema>;

export const projectDetailSchema = z.strictObject({
  ...projectSummarySchema.shape,
  pages: z.array(pageSchema),
  /** The public link's settings (always present; `public: false` when the link is off). */
  sharing: projectSharingSchema,
  approvers: z.array(z.string()),
});
export type ProjectDetail = z.infer<typeof projectDetailSchema>;

/**
 * One of the project's team's collaborators, and whether they are toggled into this project (SPEC §4:
 * collaborators comment on the team projects they are added to).
 */
export const projectCollaboratorAnswerSchema = z.strictObject({
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  photoURL: z.string().nullable(),
  enabled: z.boolean(),
});
export type ProjectCollaborator = z.infer<typeof projectCollaboratorAnswerSchema>;

/** PUT /api/projects/{id}/collaborators/{userId}. */
export const projectCollaboratorSchema = z.object({ enabled: z.boolean() }).strict();

/** POST /api/projects/{id}/pages answer (SPEC §7 add-page). */
export const addPageAnswerSchema = z.strictObject({
  projectId: z.string(),
  pageId: z.string(),
  versionId: z.string(),
  /** The new page as the project lists it (GET /api/projects/{id}), queued for its capture. */
  page: pageSchema.optional(),
});
export type AddPageResponse = z.infer<typeof addPageAnswerSchema>;

/** A version still waiting for its capture or being captured. */
export function isCapturing(version: Pick<Version, "status"> | undefined): boolean {
  return version?.status === "queued" || version?.status === "capturing";
}

/** GET /api/versions/{id}/view: where the viewer loads the version from (the content origin). */
export const versionViewSchema = z.strictObject({
  version: versionSchema,
  page: pageSchema,
  /** Snapshot document, image or PDF on the content origin; signed, short-lived. */
  contentUrl: z.string().nullable(),
  /** Full-page screenshot of the live page, if any. */
  screenshotUrl: z.string().nullable(),
});
export type VersionView = z.infer<typeof versionViewSchema>;

/** Access a project user other than the owner can hold. */
export const MEMBER_ACCESS = ["edit", "comment", "view"] as const;
export type MemberAccess = (typeof MEMBER_ACCESS)[number];

/** GET /api/share/{id}: a project as its public link shows it (the pages and versions the link shows). */
export const sharedProjectSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  type: z.enum(PROJECT_TYPES),
  access: z.enum(ACCESSES),
  sharing: projectSharingSchema,
  pages: z.array(pageSchema),
});
export type SharedProject = z.infer<typeof sharedProjectSchema>;

export const DEFAULT_SHARING: ProjectSharing = {
  public: false,
  canComment: true,
  showAllPages: true,
  showPageVersions: true,
  showEdits: false,
  hideDeviceToolbar: false,
};

/** A legacy boolean isShared becomes the settings object: true → public with defaults. */
export function normalizeSharing(
  value: boolean | Partial<ProjectSharing> | null | undefined,
): ProjectSharing {
  if (value === true) return { ...DEFAULT_SHARING, public: true };
  if (!value) return { ...DEFAULT_SHARING };
  return { ...DEFAULT_SHARING, ...value };
}

export const addMemberSchema = z
  .object({ email: z.email().max(320), access: z.enum(MEMBER_ACCESS) })
  .strict();
export const updateMemberSchema = z.object({ access: z.enum(MEMBER_ACCESS) }).strict();
export const transferProjectSchema = z.object({ to: z.string().min(1).max(64) }).strict();
export const approverSchema = z.object({ isApprover: z.boolean() }).strict();
export const pageApprovalSchema = z.object({ approved: z.boolean() }).strict();
export const sharingUpdateSchema = projectSharingSchema.partial();

/** One person of a project as the share modal lists them. */
/** What the reader may do about one person of the project, computed by the server's members policy. */
export const memberAbilitiesSchema = z.strictObject({
  changeAccess: z.boolean(),
  remove: z.boolean(),
  /** This is the reader's own entry, and they may leave. */
  leave: z.boolean(),
  makeOwner: z.boolean(),
  toggleApprover: z.boolean(),
});
export type MemberAbilities = z.infer<typeof memberAbilitiesSchema>;

export const projectMemberSchema = z.strictObject({
  /** Member entry id; null for the owner (who has no entry). */
  id: z.string().nullable(),
  uid: z.string().nullable(),
  email: z.string().nullable(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  access: z.enum(["owner", ...MEMBER_ACCESS] satisfies Access[]),
  /** Invited by e-mail, not signed up yet. */
  isPending: z.boolean(),
  isApprover: z.boolean(),
  abilities: memberAbilitiesSchema,
});
export type ProjectMember = z.infer<typeof projectMemberSchema>;

/** POST /api/projects/{id}/members: the new entry, and whether it waits for a sign-up. */
export const memberAddedSchema = z.strictObject({ id: z.string(), isPending: z.boolean() });
/** POST /api/projects/{id}/transfer: the new owner's id. */
export const projectTransferredSchema = z.strictObject({ owner: z.string() });

export const SHARING_MESSAGES = {
  shared: "Project shared with the user.",
  accessUpdated: "User access updated.",
  removed: "User removed from the project.",
  removedSelf: "You have successfully removed yourself from the project.",
  approverUpdated: "Project approver updated.",
  approved: "This page is marked as approved",
  unapproved: "This page is marked as not approved",
  notAccessible: "Project is not found or accessible. Redirecting to all projects.",
} as const;

/**
 * Update-all-pages skips pages that are approved, archived, demo or added by the extension, and image
 * pages without a screenshot source (SPEC §4).
 */
export function isUpdatablePage(page: {
  url: string;
  isApproved: unknown;
  isArchived: boolean;
  isDemo: boolean;
  source: string | null;
  screenshotSource: string | null;
}): boolean {
  if (page.isApproved || page.isArchived || page.isDemo || page.source === "extension") return false;
  return page.url !== "image" || Boolean(page.screenshotSource);
}

export const updateAllPagesSchema = z.object({ copyUnresolvedComments: z.boolean().default(false) }).strict();
export const recaptureSchema = z.object({ copyUnresolvedComments: z.boolean().default(false) }).strict();

export const similarPagesQuerySchema = z.object({ url: httpUrl }).strict();

/** Same-site, page-like links of one page, offered by the similar-pages picker. */
export const similarPagesSchema = z.strictObject({ url: z.string(), pages: z.array(z.string()) });
export type SimilarPages = z.infer<typeof similarPagesSchema>;

/** POST /api/projects/{id}/update-all: how many pages are being captured again. */
export const updatedPagesSchema = z.strictObject({ updated: z.number().int() });
