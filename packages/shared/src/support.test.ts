import { describe, expect, it } from "vitest";
import {
  canSubmitFeedback,
  earnsFeedbackWalkthrough,
  feedbackSchema,
  MAX_FEEDBACK_SCREENSHOTS,
  MAX_SUPPORT_MESSAGE,
  shouldOfferFeedbackModal,
} from "./support.ts";

describe("the provide-feedback modal (SPEC §9)", () => {
  const ready = { ownedProjects: 2, projects: 2, onboarding: { provideFeedbackWT: true as const } };

  it("is offered to a user who owns 2 or more projects, has more than one and earned the walkthrough flag", () => {
    expect(shouldOfferFeedbackModal(ready)).toBe(true);
    expect(shouldOfferFeedbackModal({ ...ready, ownedProjects: 5, projects: 7 })).toBe(true);
  });

  it.each([
    ["owns one project", { ...ready, ownedProjects: 1 }],
    ["has only one project", { ...ready, projects: 1 }],
    ["has not earned provideFeedbackWT", { ...ready, onboarding: {} }],
    [
      "already answered it (provideFeedbackModal)",
      { ...ready, onboarding: { provideFeedbackWT: true as const, provideFeedbackModal: true as const } },
    ],
  ])("is not offered when the user %s", (_, input) => {
    expect(shouldOfferFeedbackModal(input)).toBe(false);
  });

  it("earns provideFeedbackWT with the first page in an own project, once", () => {
    expect(earnsFeedbackWalkthrough({ projectPagesCount: 0, onboarding: {} })).toBe(false);
    expect(earnsFeedbackWalkthrough({ projectPagesCount: 1, onboarding: {} })).toBe(true);
    expect(earnsFeedbackWalkthrough({ projectPagesCount: 3, onboarding: { provideFeedbackWT: true } })).toBe(
      false,
    );
  });
});

describe("feedback (SPEC §5, §7)", () => {
  it("cannot be submitted blank after trimming or while sending", () => {
    expect(canSubmitFeedback("", "idle")).toBe(false);
    expect(canSubmitFeedback("   \n ", "idle")).toBe(false);
    expect(canSubmitFeedback("Great tool", "idle")).toBe(true);
    expect(canSubmitFeedback("Great tool", "sending")).toBe(false);
  });

  it("cannot be submitted over the server's limit, counted as the server counts", () => {
    expect(canSubmitFeedback("x".repeat(MAX_SUPPORT_MESSAGE), "idle")).toBe(true);
    expect(canSubmitFeedback(` ${"x".repeat(MAX_SUPPORT_MESSAGE)}\n`, "idle")).toBe(true);
    expect(canSubmitFeedback("😀".repeat(MAX_SUPPORT_MESSAGE), "idle")).toBe(true);
    expect(canSubmitFeedback("x".repeat(MAX_SUPPORT_MESSAGE + 1), "idle")).toBe(false);
    expect(feedbackSchema.safeParse({ message: "😀".repeat(MAX_SUPPORT_MESSAGE) }).success).toBe(true);
  });

  it("takes a trimmed text and a few PNG, JPEG or WebP screenshots, nothing else", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    expect(feedbackSchema.parse({ message: "  Nice  ", screenshots: [png] })).toEqual({
      message: "Nice",
      screenshots: [png],
    });
    expect(feedbackSchema.parse({ message: "Nice" }).screenshots).toEqual([]);
    expect(feedbackSchema.safeParse({ message: "   " }).success).toBe(false);
    expect(
      feedbackSchema.safeParse({ message: "x", screenshots: ["data:image/svg+xml;base64,PHN2Zz4="] }).success,
    ).toBe(false);
    expect(
      feedbackSchema.safeParse({ message: "x", screenshots: Array(MAX_FEEDBACK_SCREENSHOTS + 1).fill(png) })
        .success,
    ).toBe(false);
    expect(feedbackSchema.safeParse({ message: "x", isContact: true }).success).toBe(false);
  });
});
