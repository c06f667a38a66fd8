import type { Comment } from "@redline/shared";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommentList, VIRTUALIZE_FROM } from "./comment-list.tsx";

afterEach(cleanup);

const comments = (count: number): Comment[] =>
  Array.from(
    { length: count },
    (_, index) =>
      ({
        id: `c${index + 1}`,
        isResolved: index % 4 === 3,
        deviceSize: "default",
        pdfPage: null,
        thread: [
          {
            id: `e${index + 1}`,
            createdAt: "2026-11-24T10:00:00.000Z",
            author: { uid: "u1", displayName: "Ann", photoURL: null, isGuest: false },
            comment: `Note ${index + 1}`,
          },
        ],
      }) as unknown as Comment,
  );

function Panel({
  list,
  focusId,
  onSelect = () => {},
}: {
  list: Comment[];
  focusId?: string;
  onSelect?: (id: string) => void;
}) {
  return (
    <div className="activity__body">
      <CommentList
        comments={list}
        numberOf={(comment) => Number(comment.id.slice(1))}
        people={null}
        onSelect={onSelect}
        focusId={focusId}
      />
    </div>
  );
}

// happy-dom lays nothing out: the panel's body is given a 400 px view and each card 80 px.
const sizes = ["offsetHeight", "offsetWidth", "clientHeight", "clientWidth", "scrollHeight"] as const;
const original = sizes.map((name) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, name));
beforeEach(() => {
  for (const name of sizes)
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        const isHeight = name.endsWith("Height");
        if (this.classList.contains("activity__body"))
          return name === "scrollHeight" ? 80_000 : isHeight ? 400 : 390;
        if (this.classList.contains("comment-list__row")) return isHeight ? 80 : 390;
        return 0;
      },
    });
});
afterEach(() => {
  sizes.forEach((name, index) => {
    const descriptor = original[index];
    if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
  });
});

describe("the comment list", () => {
  it("mounts every card of a short list", () => {
    render(<Panel list={comments(10)} />);
    expect(within(screen.getByRole("list", { name: "Comments" })).getAllByRole("listitem")).toHaveLength(10);
  });

  it("mounts only the cards near the view of a long list, each saying where it is in the whole", async () => {
    render(<Panel list={comments(1000)} />);
    const list = screen.getByRole("list", { name: "Comments" });
    await waitFor(() => expect(within(list).getAllByRole("listitem").length).toBeGreaterThan(0));
    const items = within(list).getAllByRole("listitem");
    expect(items.length).toBeLessThan(VIRTUALIZE_FROM);
    expect(within(items[0]!).getByRole("button").getAttribute("aria-label")).toBe("Comment 1 by Ann");
    expect(items[0]!.getAttribute("aria-setsize")).toBe("1000");
    expect(items[0]!.getAttribute("aria-posinset")).toBe("1");
    expect(screen.queryByRole("button", { name: "Comment 900 by Ann" })).toBeNull();
  });

  it("scrolls to the comment last opened, far down, focuses it and opens it again on a click", async () => {
    const opened: string[] = [];
    render(<Panel list={comments(1000)} focusId="c900" onSelect={(id) => opened.push(id)} />);
    const card = await screen.findByRole("button", { name: "Comment 900 by Ann" });
    await waitFor(() => expect(document.activeElement).toBe(card));
    const scroller = document.querySelector<HTMLElement>(".activity__body")!;
    await waitFor(() => expect(scroller.scrollTop).toBeGreaterThan(60_000));
    // happy-dom scrolls without telling: the browser's scroll event.
    fireEvent.scroll(scroller);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Comment 1 by Ann" })).toBeNull());
    fireEvent.click(card);
    expect(opened).toEqual(["c900"]);
  });

  it("moves between cards with the arrow keys, Home and End, mounting the ones it reaches", async () => {
    render(<Panel list={comments(1000)} />);
    const first = await screen.findByRole("button", { name: "Comment 1 by Ann" });
    first.focus();
    fireEvent.keyDown(first, { key: "ArrowDown" });
    await waitFor(() => expect(document.activeElement?.getAttribute("aria-label")).toBe("Comment 2 by Ann"));
    fireEvent.keyDown(document.activeElement!, { key: "End" });
    await waitFor(() =>
      expect(document.activeElement?.getAttribute("aria-label")).toBe("Comment 1000 by Ann"),
    );
    fireEvent.keyDown(document.activeElement!, { key: "ArrowUp" });
    await waitFor(() =>
      expect(document.activeElement?.getAttribute("aria-label")).toBe("Comment 999 by Ann"),
    );
    fireEvent.keyDown(document.activeElement!, { key: "Home" });
    await waitFor(() => expect(document.activeElement?.getAttribute("aria-label")).toBe("Comment 1 by Ann"));
  });
});
