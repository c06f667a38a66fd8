import type { ProjectSummary } from "@redline/shared";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ReviewLink } from "./review-link.tsx";

const project = (type: ProjectSummary["type"]) =>
  ({ id: "p1", type, access: "owner" }) as unknown as ProjectSummary;

afterEach(cleanup);

describe("the Share modal's review requests", () => {
  it("speak of pages on a web project", () => {
    render(<ReviewLink project={project("web")} />);
    expect(screen.getByText(/ask you to review a page/)).toBeTruthy();
  });

  it("speak of slides, never of pages, on an illustration project's deck", () => {
    render(<ReviewLink project={project("illustration")} />);
    expect(screen.getByText(/a link to slides or a design they want reviewed/)).toBeTruthy();
    expect(screen.queryByText(/page/)).toBeNull();
    expect(screen.getByRole("textbox", { name: "Review request link" })).toBeTruthy();
  });
});
