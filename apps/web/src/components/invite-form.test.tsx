import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../lib/api.ts";
import { InviteForm } from "./invite-form.tsx";

afterEach(cleanup);

const LIMIT = "This project can be shared with 5 people on its owner's plan. Upgrade to add more.";

function renderForm(invite: (input: { email: string }) => Promise<unknown>) {
  render(
    <MemoryRouter>
      <InviteForm
        accessOptions={[{ value: "comment", label: "Comment" }]}
        defaultAccess="comment"
        submitLabel="Share"
        pendingLabel="Sharing..."
        isPending={false}
        invite={invite}
      />
    </MemoryRouter>,
  );
}

describe("the invite form", () => {
  it("gives a plan limit's refusal the way to upgrade, like the project limit's", async () => {
    renderForm(() => Promise.reject(new ApiError(402, "collaborators", LIMIT)));
    await userEvent.type(screen.getByLabelText("Email address"), "grace@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(LIMIT);
    expect(screen.getByRole("link", { name: "Upgrade now" }).getAttribute("href")).toBe("/upgrade");
  });

  it("keeps any other refusal as text under the field", async () => {
    renderForm(() => Promise.reject(new ApiError(400, "self", "You cannot share a project with yourself.")));
    await userEvent.type(screen.getByLabelText("Email address"), "me@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    expect((await screen.findByRole("alert")).textContent).toBe("You cannot share a project with yourself.");
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("clears the address it sent when the share is answered, keeping one typed meanwhile", async () => {
    const answers: (() => void)[] = [];
    const sent: string[] = [];
    renderForm(({ email }) => {
      sent.push(email);
      return new Promise<void>((resolve) => answers.push(resolve));
    });
    const field = screen.getByLabelText("Email address") as HTMLInputElement;
    await userEvent.type(field, "ada@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    await userEvent.clear(field);
    await userEvent.type(field, "grace@example.com");
    answers[0]!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(field.value).toBe("grace@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    answers[1]!();
    await screen.findByDisplayValue("");
    expect(sent).toEqual(["ada@example.com", "grace@example.com"]);
  });
});
