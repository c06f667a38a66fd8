/**
 * Contact Us (SPEC §2 profile menu, §7 contact, §8): a subject and a message to the people who run this
 * installation; they answer by e-mail, to the address of the account. 'Sending...' while it goes, the §8
 * confirmation once it went.
 */
import { type ContactInput, contactSchema, MAX_SUPPORT_SUBJECT, SUPPORT_MESSAGES } from "@redline/shared";
import { useState } from "react";
import "./support.css";
import {
  SupportFormModal,
  SupportMessageField,
  SupportTextField,
  useSupportRequest,
} from "./use-support-request.tsx";

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
  const send = useSupportRequest<ContactInput>("/api/support/contact", SUPPORT_MESSAGES.contactSent);
  const isBlank = !contactSchema.safeParse({ subject, message }).success;

  const handleOpenChange = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setSubject("");
      setMessage("");
      send.reset();
    }
  };

  const handleSubmit = () =>
    send.submit({ subject: subject.trim(), message: message.trim() }, () => handleOpenChange(false));

  return (
    <SupportFormModal
      open={open}
      onOpenChange={handleOpenChange}
      title="Contact Us"
      description={`Write to the people who run this Redline installation. They will answer at ${email}.`}
      submitLabel="Send message"
      isPending={send.isPending}
      canSubmit={!isBlank}
      onSubmit={handleSubmit}
    >
      <SupportTextField
        label="Subject"
        value={subject}
        onChange={setSubject}
        max={MAX_SUPPORT_SUBJECT}
        name="subject"
      />
      <SupportMessageField
        label="Message"
        rows={6}
        value={message}
        onChange={setMessage}
        sendError={send.error}
      />
    </SupportFormModal>
  );
}
