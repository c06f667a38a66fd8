/**
 * The browser's analytics: each event goes to the installation's own server as one validated shape; a
 * view switch is counted once per view (not per render, and not with the ids of the path); the offer
 * bar's click and close are counted.
 */
import { OFFER_BAR } from "@redline/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Link, Outlet, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FREE_PLAN } from "../features/billing/billing-fixtures.ts";
import { OfferBar } from "../features/billing/offer-bar.tsx";
import { track, useViewAnalytics, viewOf } from "./analytics.ts";

const sent = vi.fn();
beforeEach(() => {
  sent.mockReset();
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent(url, JSON.parse(String(init.body)), init);
    return new Response(null, { status: 204 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

function Shell() {
  useViewAnalytics();
  return (
    <>
      <Link to="/team">Team</Link>
      <Link to="/project/p1/pg1/v1/edit">Edit</Link>
      <Outlet />
    </>
  );
}

const events = () => sent.mock.calls.map(([, body]) => body);

describe("browser analytics", () => {
  it("posts an event to the server's analytics endpoint, kept alive past leaving the page", () => {
    track("UpgradeInitiated", { planId: "pro-monthly" });
    const [url, body, init] = sent.mock.calls[0]!;
    expect(url).toBe("/api/analytics/events");
    expect(body).toEqual({ event: "UpgradeInitiated", properties: { planId: "pro-monthly" } });
    expect(init).toMatchObject({ method: "POST", keepalive: true, credentials: "same-origin" });
  });

  it("names a view without the ids in its path", () => {
    expect(viewOf("/project/p1/pg1/v1/edit", "edit")).toBe("edit");
    expect(viewOf("/project/p1")).toBe("project");
    expect(viewOf("/")).toBe("home");
  });

  it("counts a switch each time the view changes, once", async () => {
    const router = createMemoryRouter(
      [
        {
          element: <Shell />,
          children: [
            { path: "/projects", element: <p>Projects</p> },
            { path: "/team", element: <p>Team page</p> },
            { path: "/project/:projectId/:pageId/:versionId/:currentView", element: <p>Review</p> },
          ],
        },
      ],
      { initialEntries: ["/projects"] },
    );
    render(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole("link", { name: "Team" }));
    await screen.findByText("Team page");
    await userEvent.click(screen.getByRole("link", { name: "Team" }));
    await userEvent.click(screen.getByRole("link", { name: "Edit" }));
    await screen.findByText("Review");
    expect(events()).toEqual([
      { event: "SwitchView", properties: { view: "projects" } },
      { event: "SwitchView", properties: { view: "team" } },
      { event: "SwitchView", properties: { view: "edit" } },
    ]);
  });

  it("counts the offer bar's deal clicked and closed", async () => {
    const router = createMemoryRouter(
      [
        { path: "/projects", element: <OfferBar plan={FREE_PLAN} /> },
        { path: "/offers", element: <p>Offers</p> },
      ],
      { initialEntries: ["/projects"] },
    );
    render(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole("button", { name: "Close offer" }));
    expect(events()).toEqual([{ event: "GrabDealClosed", properties: {} }]);
    cleanup();
    sessionStorage.clear();
    render(<RouterProvider router={router} />);
    await userEvent.click(screen.getByRole("link", { name: OFFER_BAR.action }));
    await screen.findByText("Offers");
    expect(events()[1]).toEqual({ event: "GrabDealClicked", properties: { from: "/projects" } });
  });
});
