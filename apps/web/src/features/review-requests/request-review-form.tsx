/**
 * `/request-review` (SPEC §2 public views): a visitor asks the owner behind a review link for a review of
 * a page. The link names the project (`?project={id}`); the page says whom it reaches before anything
 * is typed, and what went wrong in the server's words.
 */
import {
  MAX_REVIEW_REQUEST_MESSAGE,
  REVIEW_REQUEST_MESSAGES,
  type ReviewRequestInput,
  type ReviewRequestTarget,
} from "@redline/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { CircleCheck, Link2Off } from "lucide-react";
import { type FormEvent, useState } from "react";
import { EmailField, FormError, NameField, TextAreaField, TextField } from "../../components/field.tsx";
import { LoadingView } from "../../components/loading-view.tsx";
import { useTextLimit } from "../../components/text-limit.tsx";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import { useMe } from "../session/use-me.ts";
import "./request-review.css";

export function RequestReviewForm({ projectId }: { projectId: string | null }) {
  const target = useQuery({
    queryKey: ["api", "review-requests", "target", projectId],
    queryFn: () =>
      api<{ data: ReviewRequestTarget }>(
        `/api/review-requests/target?project=${encodeURIComponent(projectId ?? "")}`,
      ),
    enabled: projectId !== null,
    retry: false,
  });
  if (projectId === null) return <Unusable text={REVIEW_REQUEST_MESSAGES.noLink} />;
  if (target.isPending) return <LoadingView />;
  if (target.isError) return <Unusable text={errorMessage(target.error)} />;
  return <RequestForm projectId={projectId} ownerName={target.data.data.ownerName} />;
}

function Unusable({ text }: { text: string }) {
  return (
    <section className="request-review__panel request-review__panel--center" role="alert">
      <Link2Off size={28} aria-hidden className="request-review__icon" />
      <h1 className="request-review__title">Request a review</h1>
      <p>{text}</p>
    </section>
  );
}

function RequestForm({ projectId, ownerName }: { projectId: string; ownerName: string }) {
  const { data: me } = useMe();
  const [name, setName] = useState(me?.displayName ?? "");
  const [email, setEmail] = useState(me?.email ?? "");
  const [url, setUrl] = useState("");
  const [message, setMessage] = useState("");
  const messageLimit = useTextLimit(message, MAX_REVIEW_REQUEST_MESSAGE, "message");
  const send = useMutation({
    mutationFn: (input: ReviewRequestInput) =>
      api<{ message: string }>("/api/review-requests", { method: "POST", body: input }),
  });

  if (send.isSuccess)
    return (
      <section className="request-review__panel request-review__panel--center" aria-live="polite">
        <CircleCheck size={28} aria-hidden className="request-review__icon request-review__icon--done" />
        <h1 className="request-review__title">Request sent</h1>
        <p>{send.data.message || REVIEW_REQUEST_MESSAGES.sent}</p>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setUrl("");
            setMessage("");
            send.reset();
          }}
        >
          Request another review
        </button>
      </section>
    );

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    send.mutate({ projectId, name: name.trim(), email: email.trim(), url: url.trim(), message });
  };

  return (
    <section className="request-review__panel" aria-labelledby="request-review-title">
      <h1 id="request-review-title" className="request-review__title">
        Request a review
      </h1>
      <p className="request-review__lead">
        Ask {ownerName} to review a page. They get your request in Redline and by e-mail, and answer you at
        the address you give.
      </p>
      <form className="request-review__form" onSubmit={handleSubmit}>
        <NameField label="Your name" value={name} onChange={(e) => setName(e.target.value)} />
        <EmailField label="Your e-mail" value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField
          label="Page to review"
          type="url"
          required
          placeholder="https://"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <TextAreaField
          label="Message"
          hint={messageLimit.counter ?? "Optional: what should they look at?"}
          error={messageLimit.message ?? undefined}
          rows={4}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        <FormError error={send.error} />
        <button type="submit" className="btn btn--primary" disabled={send.isPending || messageLimit.isOver}>
          {send.isPending ? "Sending..." : "Send request"}
        </button>
      </form>
    </section>
  );
}
