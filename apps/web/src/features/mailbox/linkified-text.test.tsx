import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { LinkifiedText } from "./linkified-text.tsx";

afterEach(cleanup);

describe("a mail's text in the dev mailbox", () => {
  it("turns each http(s) address into a link and keeps the words around it", () => {
    const { container } = render(
      <LinkifiedText text={"Verify: http://localhost:3000/verify?oobCode=abc then https://example.com/x."} />,
    );
    const links = screen.getAllByRole("link");
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      "http://localhost:3000/verify?oobCode=abc",
      "https://example.com/x.",
    ]);
    expect(container.textContent).toBe(
      "Verify: http://localhost:3000/verify?oobCode=abc then https://example.com/x.",
    );
  });

  it("never renders markup from the text, and links nothing else", () => {
    const { container } = render(
      <LinkifiedText text={'<img src=x onerror="alert(1)"> javascript:alert(1)'} />,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(screen.queryAllByRole("link")).toEqual([]);
  });
});
