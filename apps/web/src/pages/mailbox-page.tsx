import { RefreshCw } from "lucide-react";
import { Link } from "react-router";
import { LoadingView } from "../components/loading-view.tsx";
import { LinkifiedText } from "../features/mailbox/linkified-text.tsx";
import { useMailbox } from "../features/mailbox/use-mailbox.ts";
import { isApiError } from "../lib/api.ts";
import { useDocumentTitle } from "../lib/use-document-title.ts";
import "../features/mailbox/mailbox.css";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** `/dev/mailbox`: the mails Redline would have sent, for local installs without SMTP. */
export function MailboxPage() {
  useDocumentTitle("Mailbox");
  const { data: mails, error, isPending, isFetching, refetch } = useMailbox();

  return (
    <main className="mailbox">
      <div className="mailbox__head">
        <div>
          <h1 className="mailbox__title">Mailbox</h1>
          <p className="mailbox__intro">
            Mail sent by this Redline installation while no SMTP server is set up. Newest first.
          </p>
        </div>
        <button type="button" className="btn" onClick={() => refetch()} disabled={isFetching}>
          <RefreshCw size={16} aria-hidden className={isFetching ? "spin" : undefined} />
          Refresh
        </button>
      </div>
      {isPending ? (
        <LoadingView text="Loading mail..." />
      ) : error ? (
        <p className="mailbox__empty" role="alert">
          {isApiError(error) && error.status === 404
            ? "The mailbox is only available outside production."
            : "The mailbox couldn't be loaded. Try again."}{" "}
          <Link className="link" to="/">
            Go to sign in
          </Link>
        </p>
      ) : mails.length === 0 ? (
        <p className="mailbox__empty">
          No mail yet. Sign up or ask for a password reset and it appears here.
        </p>
      ) : (
        <ol className="list-stack mailbox__list" aria-label="Messages">
          {mails.map((mail) => (
            <li key={mail.id} className="mail">
              <article aria-label={mail.subject}>
                <h2 className="mail__subject">{mail.subject}</h2>
                <p className="mail__meta">
                  <span>To: {mail.to}</span>
                  <time dateTime={mail.createdAt}>{dateFormat.format(new Date(mail.createdAt))}</time>
                </p>
                <pre className="mail__text">
                  <LinkifiedText text={mail.text} />
                </pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
