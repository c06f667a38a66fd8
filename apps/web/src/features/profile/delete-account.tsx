/** Account deletion with re-authentication by password, in the shared Modal. */
import { MESSAGES } from "@redline/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { FormError, PasswordField } from "../../components/field.tsx";
import { FormModal } from "../../components/form-modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { authCall, authClient } from "../../lib/auth-client.ts";
import { endSession } from "../session/sign-out.ts";

export function DeleteAccount() {
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
      <FormModal
        open={isOpen}
        onOpenChange={handleOpenChange}
        title="Delete your account?"
        description="Enter your password to confirm. Your account is deleted immediately and cannot be restored."
        initialFocusRef={passwordInput}
        submitLabel="Delete account"
        pendingLabel="Deleting..."
        isPending={remove.isPending}
        canSubmit={password !== ""}
        isDanger
        formClassName="profile-form"
        onSubmit={() => remove.mutate()}
      >
        <PasswordField
          inputRef={passwordInput}
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormError error={remove.error} />
      </FormModal>
    </>
  );
}
