/**
 * The suite's file order. Vitest runs the files it has no timings for largest first; on a fresh clone (CI)
 * it has none, and size says little of time: the crash test and the end-to-end mail batching, small files
 * that spend a minute each, started last and ended their phase alone on one core while the other waited.
 * The files below — each phase's longest, by a full run's timings — start first in their project, in
 * this order; the rest follow in Vitest's own order. Only an order: every file still runs.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const LONGEST_FIRST = [
  // unit
  // The authorization matrix, one file per group of routes (testing/authorization-matrix.ts), side by side.
  "apps/server/src/authorization.matrix.accounts.test.ts",
  "apps/server/src/authorization.matrix.projects.test.ts",
  "apps/server/src/authorization.matrix.boards.test.ts",
  "apps/server/src/authorization.matrix.integrations.test.ts",
  "apps/server/src/modules/notifications/notification-mail.test.ts",
  "apps/server/src/crash.test.ts",
  "packages/capture/src/hostile.test.ts",
  "apps/server/src/db/single-writer.test.ts",
  "apps/server/src/modules/plans/grants.test.ts",
  "packages/capture/src/edges.test.ts",
  "apps/server/src/modules/captures/capture.worker.test.ts",
  "apps/server/src/lib/mail/durable-mailer.test.ts",
  // e2e
  "e2e/comments.e2e.test.ts",
  "e2e/notification-mail.e2e.test.ts",
  "e2e/billing.e2e.test.ts",
  "e2e/sharing.e2e.test.ts",
  "e2e/feedback.e2e.test.ts",
  "e2e/projects.e2e.test.ts",
  "e2e/viewer.e2e.test.ts",
];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => {
        // Groups and projects keep Vitest's order; within a project the longest start first.
        if (a.spec.project.name !== b.spec.project.name) return a.index - b.index;
        return rank(a.spec) - rank(b.spec) || a.index - b.index;
      })
      .map(({ spec }) => spec);
  }
}
