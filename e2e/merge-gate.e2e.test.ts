/**
 * GitHub's merge gate in a real browser (issue #30): the owner connects GitHub from the Integrations panel,
 * picks the repository and turns the "Merge gate" switch on; on the embedded GitHub a pull request is opened
 * with a preview deployed at the reviewed page's address; its checks show "Redline review" pending; the owner
 * approves the page in Redline, and the pull request's check turns to success.
 */
import { SHARING_MESSAGES } from "@redline/shared";
import { describe, expect, it } from "vitest";
import { capturedProject, capturingAppAndSite, shot, signedIn } from "./helpers.ts";

describe("GitHub's merge gate", () => {
  const started = capturingAppAndSite("<html><body><h1>Pricing</h1></body></html>");

  it("keeps a pull request's check pending until the previewed page is approved", {
    timeout: 180_000,
  }, async () => {
    const { e2e, site } = started;
    const { page, api } = await signedIn(e2e, "gate-owner", "Olivia Owner");
    const previewUrl = `${site.url}/pricing`;
    const { projectId, path } = await capturedProject(api, previewUrl, "Pricing preview");

    await page.goto(`/project/${projectId}`);
    await page.getByRole("button", { name: "Integrations" }).click();
    const card = () =>
      page.getByRole("dialog", { name: "Integrations" }).getByRole("region", { name: "GitHub", exact: true });
    await card().getByRole("button", { name: "Connect GitHub" }).click();
    await page.getByRole("heading", { name: "Authorize Redline" }).waitFor();
    await page.getByLabel("Your GitHub username").fill("olivia-gh");
    await page.getByRole("button", { name: "Authorize", exact: true }).click();
    await page.getByText("GitHub connected successfully").waitFor();
    await page.waitForURL(`**/project/${projectId}`);

    await page.getByRole("button", { name: "Integrations" }).click();
    await card().getByLabel("Repository").selectOption({ label: "website" });
    await card().getByRole("button", { name: "Save" }).click();
    await page.getByText("Settings saved.").waitFor();
    const gate = card().getByRole("switch", { name: "Merge gate" });
    expect(await gate.getAttribute("aria-checked")).toBe("false");
    await gate.click();
    await page.getByText("Merge gate turned on.").waitFor();
    await expect.poll(() => gate.getAttribute("aria-checked")).toBe("true");
    await shot(page, "merge-gate-on");
    await page.keyboard.press("Escape");

    // On GitHub: a pull request whose preview is deployed at the reviewed page's address.
    const github = await page.context().newPage();
    await github.goto(`${e2e.baseUrl}/dev/github/olivia-gh/website/pulls`);
    await github.getByLabel("Title").fill("New pricing table");
    await github.getByLabel("Preview URL").fill(previewUrl);
    await github.getByRole("button", { name: "Create pull request" }).click();
    await github.getByRole("heading", { name: /New pricing table/ }).waitFor();
    const check = async () => {
      await github.reload();
      const checks = github.getByRole("region", { name: "Checks" });
      const item = checks.getByRole("listitem").filter({ hasText: "Redline review" });
      return (await item.count()) ? item.locator("[data-state]").getAttribute("data-state") : null;
    };
    await expect.poll(check, { timeout: 30_000, interval: 1_000 }).toBe("pending");
    // Its Details link leads back to the page in Redline.
    const details = github
      .getByRole("region", { name: "Checks" })
      .getByRole("listitem")
      .filter({ hasText: "Redline review" })
      .getByRole("link", { name: "Details" });
    expect(await details.getAttribute("href")).toContain(`/project/${projectId}`);
    await shot(github, "merge-gate-pending");

    // In Redline: the owner approves the page; the check turns to success.
    await page.setViewportSize({ width: 1760, height: 1000 });
    await page.goto(`${path}/comment`);
    await page.getByRole("button", { name: "Approve page" }).click();
    await page.getByText(SHARING_MESSAGES.approved, { exact: true }).waitFor();
    await expect.poll(check, { timeout: 30_000, interval: 1_000 }).toBe("success");
    await shot(github, "merge-gate-success");
    await github.close();
  });
});
