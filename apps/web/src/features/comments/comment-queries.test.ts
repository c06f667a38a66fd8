import type { Comment, ProjectDetail } from "@redline/shared";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { projectKey } from "../projects/project-queries.ts";
import { commentsKey, removeComment, upsertComment } from "./comment-queries.ts";

const scope = { projectId: "p1", versionId: "v1" };
const comment = (id: string, createdAt: string, text = id) =>
  ({ id, createdAt, versionId: "v1", thread: [{ comment: text }] }) as unknown as Comment;

function cache(comments: Comment[] | undefined) {
  const client = new QueryClient();
  if (comments) client.setQueryData(commentsKey(scope), comments);
  client.setQueryData(projectKey("p1"), {
    pages: [
      {
        versions: [
          { id: "v1", numberOfComments: comments?.length ?? 3 },
          { id: "v2", numberOfComments: 7 },
        ],
      },
    ],
  } as unknown as ProjectDetail);
  const counts = () =>
    client.getQueryData<ProjectDetail>(projectKey("p1"))!.pages[0]!.versions.map((v) => v.numberOfComments);
  const ids = () => client.getQueryData<Comment[]>(commentsKey(scope))?.map((c) => c.id);
  return { client, counts, ids };
}

describe("comments written into the cache from responses and events", () => {
  it("adds a new comment in creation order and counts it on its version once", () => {
    const { client, counts, ids } = cache([comment("a", "2026-01-01"), comment("c", "2026-01-03")]);
    upsertComment(client, scope, comment("b", "2026-01-02"));
    // The same comment again (the author's response, then the event): no second count.
    upsertComment(client, scope, comment("b", "2026-01-02"));
    expect(ids()).toEqual(["a", "b", "c"]);
    expect(counts()).toEqual([3, 7]);
  });

  it("replaces a changed comment in place without counting it", () => {
    const { client, counts } = cache([comment("a", "2026-01-01")]);
    upsertComment(client, scope, comment("a", "2026-01-01", "edited"));
    expect(client.getQueryData<Comment[]>(commentsKey(scope))![0]!.thread[0]!.comment).toBe("edited");
    expect(counts()).toEqual([1, 7]);
  });

  it("removes a comment and uncounts it once", () => {
    const { client, counts, ids } = cache([comment("a", "2026-01-01"), comment("b", "2026-01-02")]);
    removeComment(client, scope, "a");
    removeComment(client, scope, "a");
    expect(ids()).toEqual(["b"]);
    expect(counts()).toEqual([1, 7]);
  });

  it("counts a comment on a version whose list this tab has not loaded", () => {
    const { client, counts, ids } = cache(undefined);
    upsertComment(client, scope, comment("z", "2026-01-09"));
    expect(ids()).toBeUndefined();
    expect(counts()).toEqual([4, 7]);
  });
});
