/**
 * The page notifications in a real browser (issue #16): a page added, its approval, and being made an
 * approver each reach the other person's bell live, in their words — never the actor's own bell.
 */
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.ts";
import { addMember, newProject, shot, signedIn } from "./helpers.ts";

const badge = (page: Page) => page.getByTestId("notifications-badge");
const bell = (page: Page) => page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
const panel = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

describe("page notifications", () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e.close());

  it("tells a member of a page added, approved and of being made an approver, live", async () => {
    const owner = await signedIn(e2e, "pages-owner", "Olive Owner");
    const member = await signedIn(e2e, "pages-member", "Mia Member");
    const projectId = await newProject(owner.api, "Launch");
    await addMember(owner.api, projectId, member.email, "comment");
    await expect.poll(() => badge(member.page).textContent()).toBe("1"); // the invitation

    const picture = await sharp({ create: { width: 120, height: 80, channels: 3, background: "#2f5fb3" } })
      .png()
      .toBuffer();
    const { pageId } = (
      await owner.api.upload(`/api/projects/${projectId}/uploads`, {
        name: "Pricing.png",
        type: "image/png",
        bytes: picture,
      })
    ).body.data as { pageId: string };
    await expect.poll(() => badge(member.page).textContent()).toBe("2");
    expect((await owner.api.put(`/api/pages/${pageId}/approval`, { approved: true })).status).toBe(200);
    await expect.poll(() => badge(member.page).textContent()).toBe("3");
    const uid = (await member.api.get("/api/me")).body.data.uid as string;
    expect(
      (await owner.api.put(`/api/projects/${projectId}/approvers/${uid}`, { isApprover: true })).status,
    ).toBe(200);
    await expect.poll(() => badge(member.page).textContent()).toBe("4");

    await bell(member.page).click();
    const list = panel(member.page);
    await list.getByText("added page").waitFor();
    await list.getByText("approved page").waitFor();
    await list.getByText("made you an approver of").waitFor();
    await shot(member.page, "notifications-pages-01-panel");
    // The actor's own bell stays quiet.
    expect(await badge(owner.page).count()).toBe(0);
  });
});
