/**
 * /help: the user guide shipped with this Redline (docs/user-guide.md, bundled at build time), what
 * Help → Support docs opens when the installation names no documentation of its own (DOCS_URL).
 */
import { marked } from "marked";
import { useMemo } from "react";
import guide from "../../../../docs/user-guide.md?raw";
import "../features/support/feedback.css";
import { useDocumentTitle } from "../lib/use-document-title.ts";

export function HelpPage() {
  // The guide is the repository's own text, not user input.
  const html = useMemo(() => marked.parse(guide, { async: false }), []);
  useDocumentTitle("User guide");
  return (
    <main className="help-page">
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the guide shipped in the repository */}
      <article className="help-doc" dangerouslySetInnerHTML={{ __html: html }} />
    </main>
  );
}
