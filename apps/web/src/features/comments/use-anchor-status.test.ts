import type { AnchoredStatus, Comment } from "@redline/shared";
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useSaveAnchorStatus } from "./use-anchor-status.ts";

const MAY_MOVE = { reply: true, attach: true, resolve: true, move: true };
const comment = (id: string, fields: Partial<Comment> = {}): Comment =>
  ({ id, anchorStatus: null, copiedFromVersion: "v1", abilities: MAY_MOVE, ...fields }) as Comment;

function setup(comments: Comment[]) {
  const saved: [string, AnchoredStatus][] = [];
  const view = renderHook(
    ({ anchored, round }) =>
      useSaveAnchorStatus({
        comments,
        anchored,
        round,
        save: (id, status) => saved.push([id, status]),
      }),
    { initialProps: { anchored: new Map<string, AnchoredStatus>(), round: 0 } },
  );
  return {
    saved,
    report: (anchored: Map<string, AnchoredStatus>, round: number) => view.rerender({ anchored, round }),
  };
}

describe("saving how copied comments re-anchored", () => {
  it("saves each copied comment's outcome once, across anchoring rounds", () => {
    const { saved, report } = setup([comment("a"), comment("b")]);
    report(
      new Map([
        ["a", "exact"],
        ["b", "needs-review"],
      ]),
      1,
    );
    report(
      new Map([
        ["a", "exact"],
        ["b", "orphaned"],
      ]),
      2,
    );
    expect(saved).toEqual([
      ["a", "exact"],
      ["b", "needs-review"],
    ]);
  });

  it("skips comments that were not copied or already have a saved status", () => {
    const { saved, report } = setup([
      comment("new", { copiedFromVersion: null }),
      comment("done", { anchorStatus: "exact" }),
      comment("copied"),
    ]);
    report(
      new Map([
        ["new", "orphaned"],
        ["done", "orphaned"],
        ["copied", "fuzzy"],
      ]),
      1,
    );
    expect(saved.map(([id]) => id)).toEqual(["copied"]);
  });

  it("saves only the comments the server lets this reader move", () => {
    const { saved, report } = setup([
      comment("a", { abilities: { ...MAY_MOVE, move: false } }),
      comment("b"),
    ]);
    report(
      new Map([
        ["a", "exact"],
        ["b", "exact"],
      ]),
      1,
    );
    expect(saved).toEqual([["b", "exact"]]);
  });
});
