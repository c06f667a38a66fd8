/** `/request-review` (SPEC §2 public views): ask a project's owner for a review, through their link. */
import { useSearchParams } from "react-router";
import { RequestReviewForm } from "../features/review-requests/request-review-form.tsx";
import { useDocumentTitle } from "../lib/use-document-title.ts";

export function RequestReviewPage() {
  const [params] = useSearchParams();
  useDocumentTitle("Request a review");
  return (
    <main className="request-review">
      <RequestReviewForm projectId={params.get("project")} />
    </main>
  );
}
