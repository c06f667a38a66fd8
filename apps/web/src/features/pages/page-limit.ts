/** What the upgrade prompt says when a project has reached its owner's page limit (SPEC §5). */
import type { UpgradePromptContent } from "../../components/upgrade-prompt-store.ts";

export function pageLimitText(limit: number): string {
  return `You have reached the limit of ${limit} pages on the Free Plan`;
}

export function pageLimitPrompt(limit: number): UpgradePromptContent {
  return {
    title: pageLimitText(limit),
    description: "Upgrade your plan to add more pages, images and PDFs to this project.",
  };
}
