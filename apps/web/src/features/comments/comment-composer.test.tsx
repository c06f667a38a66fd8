import { MAX_COMMENT_LENGTH } from "@redline/shared";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { expectHeldOverLimit } from "../../components/text-limit-testing.ts";
import { CommentComposer } from "./comment-composer.tsx";

afterEach(cleanup);

function renderComposer(onSubmit: (input: { comment: string }) => Promise<unknown>) {
  render(
    <CommentComposer
      label="Write a comment"
      submitLabel="Post"
      people={[{ uid: "ada", displayName: "Ada Lovelace" }]}
      projectId="p1"
      allowAttachments={false}
      onSubmit={onSubmit}
    />,
  );
  return {
    box: screen.getByRole("combobox", { name: "Write a comment" }) as HTMLTextAreaElement,
    post: screen.getByRole("button", { name: "Post" }) as HTMLButtonElement,
  };
}

describe("the comment composer", () => {
  it("keeps a comment over the limit whole and will not post it until it fits", () => {
    const { box, post } = renderComposer(async () => undefined);
    expectHeldOverLimit(box, post, MAX_COMMENT_LENGTH, "The comment can be at most 5,000 characters.");
  });

  it("empties itself when the comment is answered, keeping what was typed meanwhile", async () => {
    let answer!: () => void;
    const posted: string[] = [];
    const { box, post } = renderComposer(({ comment }) => {
      posted.push(comment);
      return new Promise<void>((resolve) => (answer = resolve));
    });
    fireEvent.change(box, { target: { value: "First" } });
    fireEvent.click(post);
    fireEvent.change(box, { target: { value: "Second thought" } });
    await act(async () => answer());
    expect(posted).toEqual(["First"]);
    expect(box.value).toBe("Second thought");
  });
});
