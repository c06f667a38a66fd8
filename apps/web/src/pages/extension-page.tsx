/**
 * /extension: what the browser extension does and how to install it (the promo badge leads here).
 * /extension/connect?challenge=…: the extension's sign-in (ADR 0037) — the signed-in person approves the
 * extension that opened this tab; it then takes a credential of its own (listed under Account Settings →
 * API tokens, ended by signing out or revoking it).
 */
import { EXTENSION_ID, EXTENSION_MESSAGES } from "@redline/shared";
import { useMutation } from "@tanstack/react-query";
import { Puzzle } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { useExtensionInstalled } from "../features/extension/use-extension-installed.ts";
import { api } from "../lib/api.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";

export function ExtensionPage() {
  useDocumentTitle("Browser extension");
  const installed = useExtensionInstalled();
  return (
    <main className="status-view extension-page">
      <h1 className="status-view__title">
        <Puzzle size={20} aria-hidden /> The Redline browser extension
      </h1>
      <p>
        Add pages of web apps behind a sign-in exactly as you see them: the extension reads the page in your
        own browser tab and adds it to a web app project you can edit.
      </p>
      {installed ? (
        <p role="status">The extension is installed in this browser.</p>
      ) : (
        <p>
          Install it in Chrome, Edge or another Chromium-based browser (or Firefox) from the extension package
          your Redline administrator provides, then sign in from its popup.
        </p>
      )}
      <div className="status-view__actions">
        <Link className="btn" to="/projects">
          Back to projects
        </Link>
      </div>
    </main>
  );
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function ExtensionConnectPage() {
  useDocumentTitle("Sign in the extension");
  const [params] = useSearchParams();
  const challenge = params.get("challenge") ?? "";
  const approve = useMutation({
    mutationFn: () =>
      api<{ message: string }>("/api/extension/grants", { method: "POST", body: { challenge } }),
    onSuccess: () => {
      // Chromium: tell the extension at once (it also asks on its own every few seconds).
      const runtime = (
        globalThis as {
          chrome?: { runtime?: { sendMessage?: (id: string, message: object, done: () => void) => void } };
        }
      ).chrome?.runtime;
      try {
        runtime?.sendMessage?.(EXTENSION_ID, { type: "approved" }, () => void 0);
      } catch {
        // not installed here, or not a Chromium browser: the extension's own polling takes over
      }
    },
  });
  if (!CHALLENGE.test(challenge))
    return (
      <main className="status-view" role="alert">
        <h1 className="status-view__title">This sign-in link is not complete</h1>
        <p>Open the Redline extension's popup and choose “Sign in with Redline” again.</p>
      </main>
    );
  return (
    <main className="status-view extension-page">
      <h1 className="status-view__title">
        <Puzzle size={20} aria-hidden /> Sign in the Redline extension
      </h1>
      {approve.isSuccess ? (
        <p role="status">{EXTENSION_MESSAGES.approved}</p>
      ) : (
        <>
          <p>
            The extension will add pages to the projects you can edit, in your name. You can sign it out at
            any time under Account Settings → API tokens, and signing out of Redline here signs it out too.
          </p>
          {approve.isError ? (
            <p className="form-error" role="alert">
              {approve.error.message}
            </p>
          ) : null}
          <div className="status-view__actions">
            <button
              type="button"
              className="btn btn--primary"
              disabled={approve.isPending}
              onClick={() => approve.mutate()}
            >
              Allow the extension
            </button>
            <Link className="btn" to="/projects">
              Cancel
            </Link>
          </div>
        </>
      )}
    </main>
  );
}
