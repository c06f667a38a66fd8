import { MAX_DISPLAY_NAME_LENGTH } from "@redline/shared";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { EmailField, Field, FormError, NameField, PasswordField, TextField } from "./field.tsx";

afterEach(cleanup);

/** The text of the elements an element's aria-describedby points at, as a screen reader reads it. */
function description(element: HTMLElement): string {
  const ids = element.getAttribute("aria-describedby")?.split(" ") ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
}

describe("TextField", () => {
  it("is named by its label and described by its hint", () => {
    render(<TextField label="Display name" hint="Shown on your comments." value="" onChange={() => {}} />);
    const input = screen.getByLabelText("Display name");
    expect(input.tagName).toBe("INPUT");
    expect(description(input)).toBe("Shown on your comments.");
    expect(input.getAttribute("aria-invalid")).toBeNull();
  });

  it("marks the input invalid and announces the error, described by hint and error", () => {
    render(<TextField label="Page URL" hint="A web address." error="Enter a valid URL." />);
    const input = screen.getByLabelText("Page URL");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe("Enter a valid URL.");
    expect(description(input)).toBe("A web address. Enter a valid URL.");
  });

  it("gives two fields on one screen distinct ids", () => {
    render(
      <>
        <TextField label="First" />
        <TextField label="Second" />
      </>,
    );
    expect(screen.getByLabelText("First").id).not.toBe(screen.getByLabelText("Second").id);
  });
});

describe("Field", () => {
  it("hands its ids to a custom control", () => {
    render(
      <Field label="Email address" error="Enter a valid e-mail address.">
        {(control) => (
          <div>
            <input {...control} />
            <button type="button">Share</button>
          </div>
        )}
      </Field>,
    );
    const input = screen.getByLabelText("Email address");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(description(input)).toBe("Enter a valid e-mail address.");
  });
});

describe("presets", () => {
  it("asks for an account's e-mail address", () => {
    render(<EmailField value="" onChange={() => {}} />);
    const input = screen.getByLabelText("Email") as HTMLInputElement;
    expect([input.type, input.autocomplete, input.required]).toEqual(["email", "email", true]);
  });

  it("states the minimum length only for a new password", () => {
    render(
      <>
        <PasswordField label="Current password" />
        <PasswordField label="New password" isNew />
      </>,
    );
    const current = screen.getByLabelText("Current password") as HTMLInputElement;
    const next = screen.getByLabelText("New password") as HTMLInputElement;
    expect([current.type, current.autocomplete, description(current)]).toEqual([
      "password",
      "current-password",
      "",
    ]);
    expect([next.autocomplete, description(next)]).toEqual(["new-password", "At least 8 characters."]);
  });
});

describe("FormError", () => {
  it("shows nothing without an error and the error's message with one", () => {
    const { rerender } = render(<FormError error={null} />);
    expect(screen.queryByRole("alert")).toBeNull();
    rerender(<FormError error={new Error("Invalid email or password")} />);
    expect(screen.getByRole("alert").textContent).toBe("Invalid email or password");
  });
});

describe("NameField", () => {
  it("asks for a required name no longer than the contract allows, autofilled as a name", () => {
    render(<NameField label="Full name" value="" onChange={() => {}} />);
    const input = screen.getByLabelText("Full name") as HTMLInputElement;
    expect(input.required).toBe(true);
    expect(input.maxLength).toBe(MAX_DISPLAY_NAME_LENGTH);
    expect(input.autocomplete).toBe("name");
  });
});
