import { SUPPORT_MESSAGES } from "@redline/shared";
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
