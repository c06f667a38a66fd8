/**
 * The popup's uploads under faults (issue #31): the network lost mid-upload is an error offered again,
 * and a retry that reaches Redline adds the page; a page over the limit is refused before anything is
 * sent; a refusal is shown as Redline words it, without a retry.
 */
import { EXTENSION_MAX_PAGE_BYTES, EXTENSION_MESSAGES } from "@redline/shared/extension";
import { describe, expect, it } from "vitest";
import { isPageTooLarge, sendUpload, type Transport, UPLOAD_MESSAGES, type UploadRequest } from "./upload";

const request: UploadRequest = { url: "http://redline.test/api/extension/pages", secret: "rl_x", body: "{}" };
const added = { projectId: "p", pageId: "g", versionId: "v", path: "/project/p/g/v/comment" };

describe("the popup's uploads", () => {
  it("reports a lost network as an error to retry, and the retry adds the page", async () => {
    const sent: UploadRequest[] = [];
    let fails = 1;
    // As fetch and XMLHttpRequest do when the connection drops: the send rejects.
    const flaky: Transport = async (request) => {
      sent.push(request);
      if (fails-- > 0) throw new TypeError("Failed to fetch");
      return { status: 201, text: JSON.stringify({ data: added }) };
    };
    const first = await sendUpload(flaky, request);
    expect(first).toEqual({ ok: false, status: 0, message: UPLOAD_MESSAGES.offline, retry: true });
    const retried = await sendUpload(flaky, request);
    expect(retried).toEqual({ ok: true, data: added });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(request);
  });

  it("offers a retry when Redline fails, not when it refuses", async () => {
    const answering =
      (status: number, body: unknown): Transport =>
      async () => ({ status, text: typeof body === "string" ? body : JSON.stringify(body) });
    expect(await sendUpload(answering(502, "<html>Bad gateway</html>"), request)).toEqual({
      ok: false,
      status: 502,
      message: UPLOAD_MESSAGES.failed,
      retry: true,
    });
    const refused = await sendUpload(
      answering(403, { message: EXTENSION_MESSAGES.projectUnavailable }),
      request,
    );
    expect(refused).toEqual({
      ok: false,
      status: 403,
      message: EXTENSION_MESSAGES.projectUnavailable,
      retry: false,
    });
    // Refused before its body is read (no JSON comes back): still the limit's message.
    expect(await sendUpload(answering(413, ""), request)).toMatchObject({
      message: EXTENSION_MESSAGES.tooLarge,
      retry: false,
    });
  });

  it("tells a page over the limit before sending it, counting bytes rather than characters", () => {
    expect(isPageTooLarge("x".repeat(EXTENSION_MAX_PAGE_BYTES))).toBe(false);
    expect(isPageTooLarge("x".repeat(EXTENSION_MAX_PAGE_BYTES + 1))).toBe(true);
    // "é" is two bytes in UTF-8: half the limit in characters is at the limit in bytes.
    expect(isPageTooLarge("é".repeat(EXTENSION_MAX_PAGE_BYTES / 2 + 1))).toBe(true);
  });
});
