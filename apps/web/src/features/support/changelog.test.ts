import { describe, expect, it } from "vitest";
import changelog from "../../../../../CHANGELOG.md?raw";
import { parseChangelog } from "./changelog.ts";

describe("parseChangelog", () => {
  it("reads releases, their dates, sections and items, newest first, without Unreleased", () => {
    const releases = parseChangelog(
      [
        "# Changelog",
        "",
        "Intro text.",
        "",
        "## [Unreleased]",
        "### Added",
        "- Not yet",
        "",
        "## [0.2.0] - 2026-11-20",
        "### Added",
        "- Feedback with `screenshots`",
        "- A long item that",
        "  wraps onto the next line",
        "### Fixed",
        "* A bug",
        "### Removed",
        "",
        "## [0.1.0] - 2026-10-01",
        "### Added",
        "- First release",
        "",
        "[0.2.0]: https://example.com/compare",
      ].join("\n"),
    );
    expect(releases).toEqual([
      {
        version: "0.2.0",
        date: "2026-11-20",
        sections: [
          {
            title: "Added",
            items: ["Feedback with `screenshots`", "A long item that wraps onto the next line"],
          },
          { title: "Fixed", items: ["A bug"] },
        ],
      },
      { version: "0.1.0", date: "2026-10-01", sections: [{ title: "Added", items: ["First release"] }] },
    ]);
  });

  it("finds releases in the repository's CHANGELOG.md, each with a date and items", () => {
    const releases = parseChangelog(changelog);
    expect(releases.length).toBeGreaterThanOrEqual(2);
    for (const release of releases) {
      expect(release.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(release.sections.flatMap((section) => section.items).length).toBeGreaterThan(0);
    }
  });
});
