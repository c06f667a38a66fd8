/** Shared by the benches that review a page: an image page to comment on, a member's cookies, a socket. */
import sharp from "sharp";
import WebSocket from "ws";
import type { ApiClient } from "../../apps/server/src/testing/http-client.ts";

/** Uploads a plain 1200×800 image as a new page of the project (no capture needed); its page and version. */
export async function addImagePage(
  author: ApiClient,
  projectId: string,
): Promise<{ pageId: string; versionId: string }> {
  const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#dfe7fd" } })
    .png()
    .toBuffer();
  const added = (
    await author.upload(`/api/projects/${projectId}/uploads`, {
      name: "page.png",
      type: "image/png",
      bytes: png,
    })
  ).body.data;
  return {
    pageId: (added.pageId ?? added.pageID) as string,
    versionId: (added.versionId ?? added.versionID) as string,
  };
}

/** A client's session cookies as a browser context takes them. */
export function cookiesFor(client: ApiClient, url: string) {
  return client
    .cookieHeader()
    .split("; ")
    .filter(Boolean)
    .map((pair) => {
      const index = pair.indexOf("=");
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url };
    });
}

/** A realtime socket on `serverUrl` signed in as `client`, joined to the project's room. */
export function joinedSocket(serverUrl: string, client: ApiClient, projectId: string): Promise<WebSocket> {
  const socket = new WebSocket(`${serverUrl.replace("http", "ws")}/api/realtime`, {
    headers: { origin: serverUrl, cookie: client.cookieHeader() },
  });
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once("open", () => socket.send(JSON.stringify({ type: "join", projectId })));
    socket.on("message", function joined(data) {
      if (JSON.parse(data.toString()).type === "joined") {
        socket.off("message", joined);
        resolve(socket);
      }
    });
    socket.once("error", reject);
  });
}
