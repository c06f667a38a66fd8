/**
 * Contact Us (SPEC §2 profile menu, §7 contact, §8): a subject and a message to the people who run this
 * installation; they answer by e-mail, to the address of the account. 'Sending...' while it goes, the §8
 * confirmation once it went.
 */
import {
  type ContactInput,
  contactSchema,
  MAX_SUPPORT_MESSAGE,
  MAX_SUPPORT_SUBJECT,
  SUPPORT_MESSAGES,
} from "@redline/shared";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { TextAreaField, TextField } from "../../components/field.tsx";
import { FormModal } from "../../components/form-modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { useTextLimit } from "../../components/text-limit.tsx";
import { api } from "../../lib/api.ts";
import { errorMessage } from "../../lib/auth-client.ts";
import "./support.css";

export function ContactModal({
  open,
  onOpenChange,
  email,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Where the answer will go: the account's address. */
  email: string;
}) {
  const [subject, setSubject] = useState("");
  const [message, setMessage] = useState("");
  const send = useMutation({
    mutationFn: (input: ContactInput) =>
      api<{ message: string }>("/api/support/contact", { method: "POST", body: input }),
  });
  const subjectLimit = useTextLimit(subject, MAX_SUPPORT_SUBJECT, "subject");
  const messageLimit = useTextLimit(message, MAX_SUPPORT_MESSAGE, "message");
  const isBlank = !contactSchema.safeParse({ subject, message }).success;

  const handleOpenChange = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setSubject("");
      setMessage("");
      send.reset();
    }
  };

  const handleSubmit = () => {
    send.mutate(
      { subject: subject.trim(), message: message.trim() },
      {
        onSuccess: () => {
          snackbar.success(SUPPORT_MESSAGES.contactSent);
          handleOpenChange(false);
        },
      },
    );
  };

  return (
    <FormModal
      open={open}
      onOpenChange={handleOpenChange}
      title="Contact Us"
      description={`Write to the people who run this Redline installation. They will answer at ${email}.`}
      submitLabel="Send message"
      pendingLabel="Sending..."
      isPending={send.isPending}
      canSubmit={!isBlank}
      formClassName="form-stack"
      onSubmit={handleSubmit}
    >
      <TextField
        label="Subject"
        value={subject}
        hint={subjectLimit.counter ?? undefined}
        error={subjectLimit.message ?? undefined}
        onChange={(e) => setSubject(e.target.value)}
      />
      <TextAreaField
        label="Message"
        rows={6}
        inputClassName="support-message"
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        hint={messageLimit.counter ?? undefined}
        error={messageLimit.message ?? (send.isError ? errorMessage(send.error) : undefined)}
      />
    </FormModal>
  );
}
