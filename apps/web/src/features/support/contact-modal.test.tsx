import { MAX_SUPPORT_MESSAGE, MAX_SUPPORT_SUBJECT, SUPPORT_MESSAGES } from "@redline/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Snackbars } from "../../components/snackbars.tsx";
import { stubApi } from "../billing/billing-fixtures.ts";
import { ContactModal } from "./contact-modal.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderModal() {
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ContactModal open onOpenChange={onOpenChange} email="ada@example.com" />
      <Snackbars />
    </QueryClientProvider>,
  );
  return onOpenChange;
}

describe("Contact Us", () => {
  it("sends only a subject and a message that are not blank, says 'Sending...' meanwhile, then confirms", async () => {
    let answer!: (value: { status: number; body: unknown }) => void;
    const sent = stubApi({
      "POST /api/support/contact": () => new Promise((resolve) => (answer = resolve)),
    });
    const onOpenChange = renderModal();
    expect(screen.getByText(/They will answer at ada@example.com/)).toBeTruthy();
    const send = screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Subject"), { target: { value: "Invoices" } });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "   " } });
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "  Where is it?  " } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    const sending = (await screen.findByRole("button", { name: "Sending..." })) as HTMLButtonElement;
    expect(sending.disabled).toBe(true);
    answer({ status: 201, body: { message: SUPPORT_MESSAGES.contactSent } });
    expect(await screen.findByText(SUPPORT_MESSAGES.contactSent)).toBeTruthy();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(sent).toEqual([
      {
        method: "POST",
        path: "/api/support/contact",
        body: { subject: "Invoices", message: "Where is it?" },
      },
    ]);
  });

  it("keeps a subject or message over the limit whole and says what is allowed", () => {
    renderModal();
    const send = screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement;
    const subject = screen.getByLabelText("Subject") as HTMLInputElement;
    const message = screen.getByLabelText("Message") as HTMLTextAreaElement;
    expect(subject.hasAttribute("maxlength") || message.hasAttribute("maxlength")).toBe(false);
    fireEvent.change(subject, { target: { value: "s".repeat(MAX_SUPPORT_SUBJECT + 5) } });
    fireEvent.change(message, { target: { value: "m".repeat(MAX_SUPPORT_MESSAGE + 1) } });
    expect(subject.value).toHaveLength(MAX_SUPPORT_SUBJECT + 5);
    expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual([
      "The subject can be at most 200 characters.",
      "The message can be at most 5,000 characters.",
    ]);
    expect(screen.getByText("5,001 / 5,000")).toBeTruthy();
    expect(message.getAttribute("aria-invalid")).toBe("true");
    expect(send.disabled).toBe(true);
    fireEvent.change(subject, { target: { value: "Invoices" } });
    fireEvent.change(message, { target: { value: "m".repeat(MAX_SUPPORT_MESSAGE) } });
    expect(screen.queryAllByRole("alert")).toEqual([]);
    expect(send.disabled).toBe(false);
  });

  it("shows the server's refusal and keeps what was written", async () => {
    stubApi({
      "POST /api/support/contact": {
        status: 429,
        body: { code: "rate-limited", message: "Too many requests." },
      },
    });
    renderModal();
    fireEvent.change(screen.getByLabelText("Subject"), { target: { value: "Hi" } });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Hello" } });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect(await screen.findByText("Too many requests.")).toBeTruthy();
    expect((screen.getByLabelText("Message") as HTMLTextAreaElement).value).toBe("Hello");
  });
});
