/** Asked once of a visitor of a public link: a name (and an optional e-mail), or 'Continue as Anonymous'. */
import { type FormEvent, useId, useState } from "react";
import { TextField } from "../../components/field.tsx";
import { type Guest, saveAnonymousGuest, saveNamedGuest } from "./guest-store.ts";
import "./shared-view.css";

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function GuestPrompt({ projectTitle, onDone }: { projectTitle: string; onDone(guest: Guest): void }) {
  const id = useId();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  // A refusal stays under the field it is about.
  const [error, setError] = useState<{ field: "name" | "email"; message: string } | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!name.trim()) {
      setError({ field: "name", message: "Enter your name, or continue as Anonymous." });
      return;
    }
    if (address && !EMAIL_PATTERN.test(address)) {
      setError({ field: "email", message: "Enter a valid e-mail address, or leave it empty." });
      return;
    }
    const guest = saveNamedGuest(name, address || null);
    if (!guest) {
      setError({ field: "name", message: "Your name and e-mail cannot contain two underscores in a row." });
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
          <TextField
            label="Your name"
            autoComplete="name"
            maxLength={80}
            value={name}
            error={error?.field === "name" ? error.message : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          <TextField
            label="Email (optional)"
            type="email"
            autoComplete="email"
            maxLength={320}
            value={email}
            error={error?.field === "email" ? error.message : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
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
