/**
 * The task trackers' journey (issue #30), one row per tracker against its embedded stand-in: the owner
 * connects the tracker from the Integrations panel through the stand-in's authorize page and the
 * `/integration/{tracker}` return route (Trello: the token in the URL's fragment; the others: a code in its
 * query, exchanged for a token — Asana's and Jira's expiring, with a refresh token), picks where cards go,
 * creates a card from a comment thread, the card's link shows on the thread, and finishing the card on the
 * tracker's own page (archive, complete, close, move to Done) resolves the thread live. Each tracker's
 * words come from TRACKER_TERMS; a small driver knows its stand-in's pages.
 */
import { TRACKER_NAMES, TRACKER_TERMS, type TrackerType } from "@redline/shared";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { testComment } from "../apps/server/src/testing/anchors.ts";
import { capturedProject, capturingAppAndSite, shot, signedIn } from "./helpers.ts";

interface TrackerDriver {
  tracker: TrackerType;
  /** On the stand-in's authorize page: allows as `account`. */
  allow(page: Page, account: string): Promise<void>;
  account: string;
  /** The list (or project, repository…) cards go to, as the panel names it. */
  list: string;
  /** A part of a card's URL at the stand-in. */
  cardPath: string;
  /** On the card's page: finishes it, and waits until the page says so. */
  finish(page: Page): Promise<void>;
  /** Also turns on the automatic rule and the tracker off and on (SPEC §8's texts). */
  automatic?: boolean;
}

const DRIVERS: TrackerDriver[] = [
  {
    tracker: "trello",
    account: "Tess Trello",
    async allow(page, account) {
      // As Trello's client.js sends a browser there.
      await page.getByRole("heading", { name: "Let Redline use your account?" }).waitFor();
      await page.getByLabel("Your Trello name").fill(account);
      await page.getByRole("button", { name: "Allow" }).click();
    },
    list: "To Do",
    cardPath: "/dev/trello/c/",
    async finish(page) {
      await page.getByRole("button", { name: "Archive" }).click();
      await page.getByText("Archived", { exact: true }).waitFor();
    },
  },
  {
    tracker: "clickup",
    account: "Cleo Clickup",
    async allow(page, account) {
      await page.getByRole("heading", { name: "Connect your workspace to Redline?" }).waitFor();
      await page.getByLabel("Your ClickUp name").fill(account);
      await page.getByRole("button", { name: "Connect Workspace" }).click();
    },
    list: "Team Space / Feedback",
    cardPath: "/dev/clickup/t/",
    async finish(page) {
      await page.getByRole("button", { name: "Mark complete" }).click();
      await page.getByRole("button", { name: "Reopen" }).waitFor();
    },
  },
  {
    tracker: "github",
    account: "olivia-gh",
    async allow(page, account) {
      // Where GitHub sends an OAuth app's user.
      await page.getByRole("heading", { name: "Authorize Redline" }).waitFor();
      await page.getByLabel("Your GitHub username").fill(account);
      await page.getByRole("button", { name: "Authorize", exact: true }).click();
    },
    list: "website",
    cardPath: "/dev/github/olivia-gh/website/issues/1",
    async finish(page) {
      await page.getByRole("button", { name: "Close issue" }).click();
      await page.getByRole("button", { name: "Reopen issue" }).waitFor();
    },
  },
  {
    tracker: "asana",
    account: "Ada Asana",
    async allow(page, account) {
      await page.getByRole("heading", { name: "Redline would like to access your Asana account" }).waitFor();
      await page.getByLabel("Your Asana name").fill(account);
      await page.getByRole("button", { name: "Allow" }).click();
    },
    list: "Website feedback",
    cardPath: "/dev/asana/0/",
    async finish(page) {
      // A signed event that names the change; Redline reads the task.
      await page.getByRole("button", { name: "Mark complete" }).click();
      await page.getByText("Completed", { exact: true }).waitFor();
    },
  },
  {
    tracker: "jira",
    account: "Jade Jira",
    async allow(page, account) {
      // Atlassian's consent page (OAuth 2.0 3LO).
      await page
        .getByRole("heading", { name: "Redline is requesting access to your Atlassian account" })
        .waitFor();
      await page.getByLabel("Your Atlassian name").fill(account);
      await page.getByRole("button", { name: "Accept" }).click();
    },
    list: "Website — Bug",
    cardPath: "/dev/jira/s/",
    automatic: true,
    async finish(page) {
      // A dynamic webhook (Jira's JWT) at Redline's secret URL; Redline reads the status again.
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByText("Status: Done").waitFor();
    },
  },
];

describe("the task trackers", () => {
  const started = capturingAppAndSite("<html><body><h1>Hello</h1></body></html>");

  describe.each(DRIVERS)("$tracker", (driver) => {
    const name = TRACKER_NAMES[driver.tracker];
    const terms = TRACKER_TERMS[driver.tracker];

    it(`connects from the panel, creates ${/^[aeiou]/.test(terms.card) ? "an" : "a"} ${terms.card} from a comment, and finishing it in ${name} resolves the thread`, {
      timeout: 180_000,
    }, async () => {
      const { e2e, site } = started;
      const { page, api } = await signedIn(e2e, `${driver.tracker}-owner`, "Olivia Owner");
      const { projectId, path, versionId } = await capturedProject(api, `${site.url}/page`, `${name} site`);
      const text = `The heading is too small for ${name}`;
      const posted = await api.post(`/api/versions/${versionId}/comments`, testComment(text));
      expect(posted.status).toBe(201);
      const commentId = posted.body.data.id as string;

      await page.goto(`/project/${projectId}`);
      await page.getByRole("button", { name: "Integrations" }).click();
      const card = () =>
        page.getByRole("dialog", { name: "Integrations" }).getByRole("region", { name, exact: true });
      await card()
        .getByRole("button", { name: `Connect ${name}` })
        .click();

      await driver.allow(page, driver.account);
      await page.getByText(`${name} connected successfully`).waitFor();
      await page.waitForURL(`**/project/${projectId}`);
      // Nothing the tracker handed back stays in the address bar.
      expect(new URL(page.url()).hash).toBe("");
      expect(new URL(page.url()).search).toBe("");

      await page.getByRole("button", { name: "Integrations" }).click();
      await card().getByText(`Connected as ${driver.account}.`).waitFor();
      const listLabel = `${terms.list[0]!.toUpperCase()}${terms.list.slice(1)}`;
      await card().getByLabel(listLabel).selectOption({ label: driver.list });
      await card().getByRole("button", { name: "Save" }).click();
      await page.getByText("Settings saved.").waitFor();
      await shot(page, `integrations-${driver.tracker}`);
      await page.keyboard.press("Escape");

      await page.goto(`${path}/comment?id=${commentId}`);
      await page.getByRole("heading", { name: "Comment 1" }).waitFor();
      await page.getByRole("button", { name: `Create ${name} ${terms.card}` }).click();
      await page.getByText(`Comment added to ${name}`).waitFor();
      const cardUrl = (await page.getByRole("link", { name: `Open in ${name}` }).getAttribute("href"))!;
      expect(cardUrl).toContain(driver.cardPath);

      // On the tracker: the card holds the comment and a link back; finishing it resolves the thread, live.
      const tracker = await page.context().newPage();
      await tracker.goto(cardUrl);
      await tracker.getByRole("heading", { name: text }).waitFor();
      await tracker.getByText(`${e2e.baseUrl}/project/${projectId}/`, { exact: false }).waitFor();
      await shot(tracker, `${driver.tracker}-page`);
      await driver.finish(tracker);
      await page.getByRole("button", { name: "Reopen" }).waitFor({ timeout: 15_000 });
      await page.getByRole("region", { name: "Comment 1" }).getByText("Resolved", { exact: true }).waitFor();
      await shot(page, `${driver.tracker}-${terms.card}-resolved`);
      await tracker.close();
      if (!driver.automatic) return;

      // The automatic rule: on in the panel, then a new comment gets its card with nobody asking.
      await page.goto(`/project/${projectId}`);
      await page.getByRole("button", { name: "Integrations" }).click();
      const article = /^[aeiou]/.test(terms.card) ? "an" : "a";
      await card()
        .getByRole("switch", { name: `Create ${article} ${terms.card} for each new comment and ticket` })
        .click();
      await card().getByRole("button", { name: "Save" }).click();
      await page.getByText("Settings saved.").waitFor();
      await card()
        .getByRole("switch", { name: `Send to ${name}` })
        .click();
      await page.getByText(`${name} integrations disabled`).waitFor();
      await card()
        .getByRole("switch", { name: `Send to ${name}` })
        .click();
      await page.getByText(`${name} integrations enabled`).waitFor();
      await page.keyboard.press("Escape");
      const automatic = await api.post(
        `/api/versions/${versionId}/comments`,
        testComment("Made by the rule"),
      );
      expect(automatic.status).toBe(201);
      await page.goto(`${path}/comment?id=${automatic.body.data.id}`);
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByRole("heading", { name: "Comment 2" }).waitFor();
            return page.getByRole("link", { name: `Open in ${name}` }).count();
          },
          { timeout: 60_000, interval: 2_000 },
        )
        .toBe(1);
    });
  });
});
