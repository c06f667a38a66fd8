/**
 * `/request-review` (SPEC §2 public views; issue #34 item 3) in a real browser: the owner copies the
 * review link from the share dialog, a signed-out visitor asks for a review, and the owner sees it in
 * the notifications panel and gets the mail.
 */
import { REVIEW_REQUEST_MESSAGES } from "@redline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { newProject, shot, signedIn } from "./helpers.ts";

describe("request a review", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it("a visitor asks the owner through the owner's link; the owner is notified and mailed", async () => {
    const owner = await signedIn(e2e, "reviewer-owner", "Olive Owner");
    const projectId = await newProject(owner.api, "Storefront");
    await owner.page.goto(`/project/${projectId}`);
    await owner.page.getByRole("button", { name: "Share", exact: true }).click();
    const share = owner.page.getByRole("dialog", { name: "Share “Storefront”" });
    const link = await share.getByRole("textbox", { name: "Review request link" }).inputValue();
    expect(link).toBe(`${e2e.baseUrl}/request-review?project=${projectId}`);
    await share.getByRole("button", { name: "Done" }).click();

    const visitor = await e2e.newPage();
    // Without a link's project the page says where to get one.
    await visitor.goto("/request-review");
    await visitor.getByText(REVIEW_REQUEST_MESSAGES.noLink).waitFor();
    await visitor.goto("/request-review?project=nothing-here");
    await visitor.getByText(REVIEW_REQUEST_MESSAGES.invalidLink).waitFor();

    await visitor.goto(link);
    await visitor.getByText("Ask Olive Owner to review a page.", { exact: false }).waitFor();
    await visitor.getByLabel("Your name").fill("Rita Reviewer");
    await visitor.getByLabel("Your e-mail").fill("rita@example.com");
    await visitor.getByLabel("Page to review").fill("notaurl");
    await visitor.getByLabel("Message").fill("The new checkout, please.");
    await shot(visitor, "request-review-01-form");
    // The browser's own check asks for a URL first; past it, the server's sentence shows.
    await visitor.getByLabel("Page to review").fill("ftp://rita.example/checkout");
    await visitor.getByRole("button", { name: "Send request" }).click();
    await visitor
      .getByRole("alert")
      .getByText(/starting with https:\/\//)
      .waitFor();
    await visitor.getByLabel("Page to review").fill("https://rita.example/checkout");
    await visitor.getByRole("button", { name: "Send request" }).click();
    await visitor.getByText(REVIEW_REQUEST_MESSAGES.sent).waitFor();
    await shot(visitor, "request-review-02-sent");

    // The owner: the bell's badge, then the panel in words.
    const bell = owner.page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
    await expect.poll(() => owner.page.getByTestId("notifications-badge").textContent()).toBe("1");
    await bell.click();
    const panel = owner.page.getByRole("dialog", { name: "Notifications" });
    await panel.getByText("Rita Reviewer").waitFor();
    await panel.getByText("asked you to review", { exact: false }).waitFor();
    await panel.getByText("https://rita.example/checkout", { exact: false }).waitFor();
    await shot(owner.page, "request-review-03-notified");

    const mail = await e2e.app.inbox!.waitFor(
      (m) => m.to.includes(owner.email) && m.subject.includes("review"),
    );
    expect(mail.subject).toBe("Rita Reviewer asked you to review a page");
    expect(mail.text).toContain("https://rita.example/checkout");
    expect(mail.headers["reply-to"]).toContain("rita@example.com");
  });
});
