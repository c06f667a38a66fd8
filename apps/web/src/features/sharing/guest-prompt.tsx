/** Asked once of a visitor of a public link: a name (and an optional e-mail), or 'Continue as Anonymous'. */
import { type FormEvent, useId, useState } from "react";
import { type Guest, saveAnonymousGuest, saveNamedGuest } from "./guest-store.ts";
import "./shared-view.css";

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function GuestPrompt({ projectTitle, onDone }: { projectTitle: string; onDone(guest: Guest): void }) {
  const id = useId();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!name.trim()) {
      setError("Enter your name, or continue as Anonymous.");
      return;
    }
    if (address && !EMAIL_PATTERN.test(address)) {
      setError("Enter a valid e-mail address, or leave it empty.");
      return;
    }
    const guest = saveNamedGuest(name, address || null);
    if (!guest) {
      setError("Your name and e-mail cannot contain two underscores in a row.");
      return;
    }
    onDone(guest);
  };

  return (
    <main className="guest-prompt">
      <section className="guest-prompt__panel" aria-labelledby={`${id}-title`}>
        <p className="guest-prompt__eyebrow">Shared with you</p>
        <h1 id={`${id}-title`} className="guest-prompt__title">
          {projectTitle}
        </h1>
        <p className="guest-prompt__text">
          Tell the team who you are. Your name is shown with what you leave on the pages; your e-mail is only
          for replies.
        </p>
        <form className="guest-prompt__form" onSubmit={handleSubmit} noValidate>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-name`}>
              Your name
            </label>
            <input
              id={`${id}-name`}
              className="input"
              autoComplete="name"
              maxLength={80}
              value={name}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-email`}>
              Email (optional)
            </label>
            <input
              id={`${id}-email`}
              className="input"
              type="email"
              autoComplete="email"
              maxLength={320}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </div>
          {error ? (
            <p id={`${id}-error`} className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn btn--primary btn--block">
            Continue
          </button>
          <button
            type="button"
            className="btn btn--ghost btn--block"
            onClick={() => onDone(saveAnonymousGuest())}
          >
            Continue as Anonymous
          </button>
        </form>
      </section>
    </main>
  );
}
