import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Snackbars } from "../../components/snackbars.tsx";
import { ME_KEY } from "../session/use-me.ts";
import { PRO_PLAN, type StubResponse, stubApi, user } from "./billing-fixtures.ts";
import { DealCodeForm } from "./deal-code-form.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderForm(answer: StubResponse | ((body: unknown) => Promise<StubResponse>)) {
  const sent = stubApi({ "POST /api/me/lifetime-deal": answer });
  const queryClient = new QueryClient();
  queryClient.setQueryData(ME_KEY, user());
  render(
    <QueryClientProvider client={queryClient}>
      <DealCodeForm kind="lifetime" />
      <Snackbars />
    </QueryClientProvider>,
  );
  return { sent, queryClient };
}

const field = () => screen.getByLabelText("Lifetime deal code") as HTMLInputElement;

describe("redeeming a lifetime-deal code", () => {
  it("is a named section with a named field and a Redeem button", () => {
    renderForm({ body: {} });
    expect(screen.getByRole("region", { name: "Have a lifetime deal code?" })).toBeTruthy();
    expect(field().required).toBe(true);
    expect(screen.getByRole("button", { name: "Redeem" })).toBeTruthy();
  });

  it.each([
    [404, "grant-invalid", "This code is not valid."],
    [409, "grant-used", "This has already been used."],
  ])("on %i %s says why under the field", async (status, code, message) => {
    const { sent } = renderForm({ status, body: { error: "Error", code, message } });
    await userEvent.type(field(), "  RL1-abc  ");
    await userEvent.click(screen.getByRole("button", { name: "Redeem" }));
    const error = await screen.findByText(message);
    expect(error.closest(".field")).toBe(field().closest(".field"));
    expect(field().getAttribute("aria-invalid")).toBe("true");
    expect(field().getAttribute("aria-describedby")).toBe(error.id);
    expect(sent).toEqual([{ method: "POST", path: "/api/me/lifetime-deal", body: { code: "RL1-abc" } }]);
    // Editing the code clears the explanation.
    await userEvent.type(field(), "d");
    expect(screen.queryByText(message)).toBeNull();
  });

  it("waits, then shows the server's message and the updated user, and empties the field", async () => {
    let answer!: (response: StubResponse) => void;
    const updated = user({ ...PRO_PLAN, name: "Lifetime tier 2", hideUpsells: true });
    const { queryClient } = renderForm(
      () =>
        new Promise<StubResponse>((resolve) => {
          answer = resolve;
        }),
    );
    await userEvent.type(field(), "RL2-code");
    await userEvent.click(screen.getByRole("button", { name: "Redeem" }));
    const waiting = await screen.findByRole("button", { name: "Please wait..." });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);

    answer({ body: { data: updated, message: "Your lifetime deal is active." } });
    expect(await screen.findByText("Your lifetime deal is active.")).toBeTruthy();
    await waitFor(() => expect(queryClient.getQueryData(ME_KEY)).toEqual(updated));
    expect(field().value).toBe("");
    expect(screen.getByRole("button", { name: "Redeem" })).toBeTruthy();
  });

  it("shows any other failure as a snackbar, not under the field", async () => {
    renderForm({ status: 500, body: { error: "Server", code: "internal", message: "Something broke." } });
    await userEvent.type(field(), "RL3-code");
    await userEvent.click(screen.getByRole("button", { name: "Redeem" }));
    const text = await screen.findByText("Something broke.");
    expect(text.closest(".snackbar")).not.toBeNull();
    expect(field().getAttribute("aria-invalid")).toBeNull();
  });
});

describe("redeeming a partner code", () => {
  it("names its own section and field and posts to the partner route", async () => {
    const sent = stubApi({
      "POST /api/me/partner-plan": { body: { data: user(), message: "Your partner plan is active." } },
    });
    const queryClient = new QueryClient();
    queryClient.setQueryData(ME_KEY, user());
    render(
      <QueryClientProvider client={queryClient}>
        <DealCodeForm kind="lifetime" />
        <DealCodeForm kind="partner" />
        <Snackbars />
      </QueryClientProvider>,
    );
    expect(screen.getByRole("region", { name: "Have a partner code?" })).toBeTruthy();
    await userEvent.type(screen.getByLabelText("Partner code"), "RPB-code");
    const region = screen.getByRole("region", { name: "Have a partner code?" });
    await userEvent.click(region.querySelector("button")!);
    expect(await screen.findByText("Your partner plan is active.")).toBeTruthy();
    expect(sent).toEqual([{ method: "POST", path: "/api/me/partner-plan", body: { code: "RPB-code" } }]);
  });
});
