/**
 * Slack's journey (issue #30), against the embedded Slack: the owner connects Slack from the project's
 * Integrations panel through the stand-in's install page and the `/integration/slack/{projectId}` return
 * page, chooses a channel, adds a comment in the review view, finds it in the stand-in's channel page,
 * replies there in its thread — and the reply shows in the comment's thread here, live, as the Slack
 * member's ("Sam Slack (Slack)").
 */
import { describe, expect, it } from "vitest";
import { capturedProject, capturingAppAndSite, openSnapshot, shot, signedIn } from "./helpers.ts";

describe("Slack", () => {
  const started = capturingAppAndSite(
    "<html><body><h1>Acme shoes</h1><p>Running shoes for every road.</p></body></html>",
  );

  it("connects from the panel, posts a new comment to the channel, and brings a Slack reply back", {
    timeout: 180_000,
  }, async () => {
    const { e2e, site } = started;
    const { page, api } = await signedIn(e2e, "slack-owner", "Olivia Owner");
    const { projectId, path } = await capturedProject(api, `${site.url}/shoes`, "Slacked site");

    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Integrations" }).click();
    const slack = () =>
      page.getByRole("dialog", { name: "Integrations" }).getByRole("region", { name: "Slack" });
    await slack().getByRole("button", { name: "Connect Slack" }).click();

    // The stand-in's install page, as Slack's OAuth v2 sends a browser there.
    await page.getByRole("heading", { name: /Redline is requesting permission/ }).waitFor();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.getByText("Slack connected successfully").waitFor();
    await page.waitForURL(`**/project/${projectId}`);

    await page.getByRole("button", { name: "Integrations" }).click();
    await slack().getByText("Workspace: Redline test workspace").waitFor();
    await slack().getByRole("option", { name: "#design-reviews" }).waitFor({ state: "attached" });
    await slack().getByLabel("Channel").selectOption({ label: "#design-reviews" });
    await page.getByText("Slack channel set to #design-reviews.").waitFor();
    await shot(page, "integrations-slack");
    await page.keyboard.press("Escape");

    const frame = await openSnapshot(page, `${path}/comment`, "comment");
    await frame.getByRole("heading", { name: "Acme shoes" }).click();
    await page.getByLabel("Write a comment").fill("The heading needs more contrast");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    await page.getByRole("heading", { name: "Comment 1" }).waitFor();

    // In "Slack": the comment's message in the channel, then a person's reply in its thread.
    const channel = await page.context().newPage();
    await expect
      .poll(
        async () => {
          await channel.goto(`${e2e.baseUrl}/dev/slack/channels/C0REVIEWS1`);
          return channel.getByRole("article", { name: "Message 1" }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const message = channel.getByRole("article", { name: "Message 1" });
    await message.getByText("The heading needs more contrast").waitFor();
    await message.getByText("Olivia Owner", { exact: true }).waitFor();
    await message.getByText(/commented on/).waitFor();
    const open = message.getByRole("link", { name: "Open in Redline" });
    expect(await open.getAttribute("href")).toContain(`${path}/comment?id=`);
    await message.getByLabel("Your name").fill("Sam Slack");
    await message.getByLabel("Reply in thread").fill("Agreed, darker please");
    await message.getByRole("button", { name: "Reply" }).click();
    await channel
      .getByRole("article", { name: "Message 1" })
      .getByRole("region", { name: "Reply" })
      .getByText("Agreed, darker please")
      .waitFor();
    await shot(channel, "slack-channel-thread");

    // Back in Redline: the reply is in the comment's thread, live, authored by the Slack member.
    const thread = page.getByRole("region", { name: "Comment 1" });
    await thread.getByText("Agreed, darker please").waitFor({ timeout: 15_000 });
    await thread.getByText("Sam Slack (Slack)").waitFor();
    await shot(page, "slack-reply-in-thread");
  });
});
