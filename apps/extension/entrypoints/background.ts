/**
 * The extension's worker: the sign-in hand-off (the app approves a challenge; the worker takes the
 * credential with its verifier), the context menu and shortcut (they open the popup's flow in a window
 * for the tab), a region of the tab added as an image page, and the badge: the number of open threads on
 * the current tab's address.
 */
import { account, api, challengeOf, REDLINE_URL, randomVerifier } from "../src/redline";
import { type Rect, regionFileName, regionInPixels } from "../src/region";
import { fetchTransport, sendUpload } from "../src/upload";

/** What the popup and the region script tell the worker. */
interface RegionMessage {
  type?: string;
  tabId?: number;
  projectId?: string;
  rect?: Rect;
  viewport?: { width: number; height: number };
  title?: string;
}

const REDLINE_ORIGIN = new URL(REDLINE_URL).origin;
const POLL_MS = 1500;
const POLL_FOR_MS = 5 * 60_000;

export default defineBackground(() => {
  /** Opens Redline to approve this extension; the verifier stays here (session storage: this worker only). */
  async function signIn() {
    const verifier = randomVerifier();
    await browser.storage.session.set({ verifier, verifierSince: Date.now() });
    const challenge = await challengeOf(verifier);
    await browser.tabs.create({ url: `${REDLINE_URL}/extension/connect?challenge=${challenge}` });
    void pollForApproval();
  }

  let polling = false;
  async function pollForApproval() {
    if (polling) return;
    polling = true;
    try {
      for (;;) {
        const { verifier, verifierSince } = await browser.storage.session.get(["verifier", "verifierSince"]);
        if (typeof verifier !== "string" || Date.now() - Number(verifierSince) > POLL_FOR_MS) return;
        if (await takeSession(verifier)) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      polling = false;
    }
  }

  async function takeSession(verifier: string): Promise<boolean> {
    try {
      const { data } = await api<{ data: { secret: string; user: { name: string; email: string } } }>(
        "POST",
        "/api/extension/session",
        { verifier },
      );
      await browser.storage.local.set({ account: data });
      await browser.storage.session.remove(["verifier", "verifierSince"]);
      return true;
    } catch {
      return false;
    }
  }

  // Only our own pages may ask the worker anything; a web page cannot send it messages (`externally_connectable`
  // admits Redline's origin alone, below, and only to say the person approved).
  const extensionPages = browser.runtime.getURL("/");
  browser.runtime.onMessage.addListener((message: RegionMessage, sender) => {
    if (sender.id !== browser.runtime.id) return;
    // Our region script, in a tab the person asked a region of (it says where, never which project).
    if (sender.tab?.id !== undefined && !sender.url?.startsWith(extensionPages)) {
      if (message.type === "region-selected") return addRegion(sender.tab, message);
      if (message.type === "region-cancelled") return forgetRegion(sender.tab.id);
      return;
    }
    // Our popup (as a popup, or a window of it).
    if (!sender.url?.startsWith(extensionPages)) return;
    if (message.type === "sign-in") return signIn();
    if (message.type === "badge") return updateBadgeForActiveTab();
    if (
      message.type === "region" &&
      typeof message.tabId === "number" &&
      typeof message.projectId === "string"
    )
      return startRegion(message.tabId, message.projectId);
  });

  /** The popup asked for a region of the tab, for a project: the project waits here for the region. */
  async function startRegion(tabId: number, projectId: string) {
    await browser.storage.session.set({ [`region:${tabId}`]: projectId });
    await browser.scripting.executeScript({ target: { tabId }, files: ["/region.js"] });
  }
  async function forgetRegion(tabId: number) {
    const key = `region:${tabId}`;
    const { [key]: projectId } = await browser.storage.session.get(key);
    await browser.storage.session.remove(key);
    return typeof projectId === "string" ? projectId : null;
  }

  /** The region the person dragged: cropped from the visible tab, added as an image page, opened. */
  async function addRegion(
    tab: { id?: number; windowId?: number },
    message: RegionMessage,
  ): Promise<{ ok: boolean; message?: string }> {
    // Only once per request from the popup: a region nobody asked for is dropped.
    const projectId = await forgetRegion(tab.id!);
    if (!projectId || !message.rect || !message.viewport) return { ok: false };
    try {
      const png = await browser.tabs.captureVisibleTab(tab.windowId!, { format: "png" });
      const image = await createImageBitmap(await (await fetch(png)).blob());
      const area = regionInPixels(message.rect, message.viewport.width, image);
      const canvas = new OffscreenCanvas(area.width, area.height);
      canvas
        .getContext("2d")!
        .drawImage(image, area.x, area.y, area.width, area.height, 0, 0, area.width, area.height);
      const form = new FormData();
      form.append(
        "file",
        await canvas.convertToBlob({ type: "image/png" }),
        regionFileName(message.title ?? ""),
      );
      const outcome = await sendUpload<{ pageId: string; versionId: string }>(fetchTransport, {
        url: `${REDLINE_URL}/api/projects/${projectId}/uploads`,
        secret: (await account())?.secret ?? null,
        body: form,
      });
      if (!outcome.ok) {
        if (outcome.status === 401) await browser.storage.local.remove("account");
        return { ok: false, message: outcome.message };
      }
      const { pageId, versionId } = outcome.data;
      await browser.tabs.create({
        url: `${REDLINE_URL}/project/${projectId}/${pageId}/${versionId}/comment`,
      });
      return { ok: true };
    } catch (error) {
      return { ok: false, message: `Redline could not capture this region: ${(error as Error).message}` };
    }
  }
  // Redline's page says the person approved: take the credential now rather than at the next poll.
  browser.runtime.onMessageExternal?.addListener((message: { type?: string }, sender) => {
    if (!sender.url || new URL(sender.url).origin !== REDLINE_ORIGIN) return;
    if (message.type !== "approved") return;
    void browser.storage.session.get("verifier").then(({ verifier }) => {
      if (typeof verifier === "string") void takeSession(verifier);
    });
  });

  browser.contextMenus.removeAll(() => {
    browser.contextMenus.create({ id: "add-page", title: "Add this page to Redline", contexts: ["page"] });
  });
  const openPopupFor = (tabId: number | undefined) => {
    // The popup cannot be opened for the tab from a menu in every browser: a small window of it is.
    if (tabId === undefined) return;
    void browser.windows.create({
      url: browser.runtime.getURL(`/popup.html?tab=${tabId}`),
      type: "popup",
      width: 380,
      height: 560,
    });
  };
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === "add-page") openPopupFor(tab?.id);
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === "add-page") openPopupFor(tab?.id);
  });

  /** The badge: open threads on the active tab's address, when the extension may read it. */
  async function updateBadge(tabId: number, url: string | undefined) {
    if (!url || !/^https?:/.test(url) || !(await account())) {
      await browser.action.setBadgeText({ tabId, text: "" });
      return;
    }
    try {
      const { data } = await api<{ data: unknown[] }>(
        "GET",
        `/api/extension/threads?url=${encodeURIComponent(url)}`,
      );
      await browser.action.setBadgeBackgroundColor({ tabId, color: "#e5383b" });
      await browser.action.setBadgeText({ tabId, text: data.length > 0 ? String(data.length) : "" });
    } catch {
      await browser.action.setBadgeText({ tabId, text: "" });
    }
  }
  async function updateBadgeForActiveTab() {
    const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    if (tab?.id !== undefined) await updateBadge(tab.id, tab.url);
  }
  // With the optional `tabs` permission (or the page's host permission) each tab's address is known.
  browser.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.status === "complete") void updateBadge(tabId, tab.url);
  });
  browser.tabs.onActivated.addListener(({ tabId }) => {
    void browser.tabs.get(tabId).then((tab) => updateBadge(tabId, tab.url));
  });
});
