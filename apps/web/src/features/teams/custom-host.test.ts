import type { HostInfo } from "@redline/shared";
import { afterEach, describe, expect, it, vi } from "vitest";
import { documentTitle, getHostTitle, setHost } from "../../lib/host-title.ts";

const applyBranding = vi.fn();
vi.mock("./branding.ts", () => ({ applyBranding: (theme: unknown) => applyBranding(theme) }));
const { applyHost, startCustomHost } = await import("./custom-host.ts");

const theme = {
  primaryColor: "#0055ff",
  secondaryColor: "#e6eeff",
  textHighlightColor: "#ffffff",
  logoURL: null,
  iconURL: null,
};

afterEach(() => {
  setHost(null);
  applyBranding.mockReset();
  vi.unstubAllGlobals();
  document.title = "Redline";
});

describe("the tab title (SPEC §2)", () => {
  it("is the page's own on the instance's hosts, the host's title on a custom domain", () => {
    expect(documentTitle("Projects", null)).toBe("Projects | Redline");
    expect(documentTitle("Projects", "Acme Studio")).toBe("Acme Studio");
  });
});

describe("the host the app runs on", () => {
  it("changes nothing on the instance's own host", async () => {
    await applyHost({ host: "localhost", isOwnHost: true, team: null, title: null });
    expect(getHostTitle()).toBeNull();
    expect(applyBranding).not.toHaveBeenCalled();
  });

  it("titles every tab after the team of a custom domain and applies its branding", async () => {
    await applyHost({
      host: "review.example.com",
      isOwnHost: false,
      team: { name: "Acme Studio", theme },
      title: "Acme Studio",
    });
    expect(getHostTitle()).toBe("Acme Studio");
    expect(document.title).toBe("Acme Studio");
    expect(applyBranding).toHaveBeenCalledWith(theme);
  });

  it("uses the host name when no team has the domain, and leaves the look alone without a theme", async () => {
    await applyHost({
      host: "unknown.example.com",
      isOwnHost: false,
      team: null,
      title: "unknown.example.com",
    });
    expect(document.title).toBe("unknown.example.com");
    await applyHost({
      host: "x.example.com",
      isOwnHost: false,
      team: { name: "X", theme: null },
      title: "X",
    });
    expect(applyBranding).not.toHaveBeenCalled();
  });

  it("asks GET /api/host at start, and carries on as usual when it cannot", async () => {
    const answer: HostInfo = {
      host: "review.example.com",
      isOwnHost: false,
      team: null,
      title: "review.example.com",
    };
    const fetch = vi.fn(async () => new Response(JSON.stringify({ data: answer }), { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    await startCustomHost();
    expect(fetch).toHaveBeenCalledWith("/api/host", expect.anything());
    expect(getHostTitle()).toBe("review.example.com");

    setHost(null);
    vi.stubGlobal("fetch", async () => new Response("", { status: 500 }));
    await startCustomHost();
    expect(getHostTitle()).toBeNull();
  });
});
