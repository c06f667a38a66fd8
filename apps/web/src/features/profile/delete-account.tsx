/** Account deletion with re-authentication by password, in the shared Modal. */
import { MESSAGES } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { FormError, PasswordField } from "../../components/field.tsx";
import { Modal } from "../../components/modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { authCall, authClient } from "../../lib/auth-client.ts";
import { endSession } from "../session/sign-out.ts";

export function DeleteAccount() {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const passwordInput = useRef<HTMLInputElement>(null);
  const [isOpen, setOpen] = useState(false);
  const [password, setPassword] = useState("");

  const remove = useMutation({
    mutationFn: () => authCall(authClient.deleteUser({ password })),
    onSuccess: async () => {
      await endSession(queryClient, { callServer: false });
      snackbar.success(MESSAGES.accountDeleted);
      navigate("/", { replace: true });
    },
  });

  const handleOpenChange = (open: boolean) => {
    setOpen(open);
    if (!open) {
      setPassword("");
      remove.reset();
    }
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password && !remove.isPending) remove.mutate();
  };

  return (
    <>
      <div className="profile-danger">
        <p className="panel__text">
          Deleting your account removes your profile and signs you out everywhere. This cannot be undone.
        </p>
        <button type="button" className="btn btn--danger" onClick={() => setOpen(true)}>
          Delete account
        </button>
      </div>
      <Modal
        open={isOpen}
        onOpenChange={handleOpenChange}
        title="Delete your account?"
        description="Enter your password to confirm. Your account is deleted immediately and cannot be restored."
        initialFocusRef={passwordInput}
        footer={
          <>
            <button type="button" className="btn" onClick={() => handleOpenChange(false)}>
              Cancel
            </button>
            <button type="submit" form={`${id}-form`} className="btn btn--danger" disabled={remove.isPending}>
              {remove.isPending ? "Deleting..." : "Delete account"}
            </button>
          </>
        }
      >
        <form id={`${id}-form`} className="profile-form" onSubmit={handleSubmit}>
          <PasswordField
            inputRef={passwordInput}
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <FormError error={remove.error} />
        </form>
      </Modal>
    </>
  );
}
