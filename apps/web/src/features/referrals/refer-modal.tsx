/**
 * Refer & Earn (SPEC §2 profile menu; issue #34 item 4): the person's own link to copy, how many friends
 * signed up through it, how many earned a month, and until when the Standard plan they earned runs.
 */
import { REFERRAL_TEXTS, type Referral } from "@redline/shared";
import { useQuery } from "@tanstack/react-query";
import { Check, Copy } from "lucide-react";
import { LoadingView } from "../../components/loading-view.tsx";
import { Modal } from "../../components/modal.tsx";
import { snackbar } from "../../components/snackbar-store.ts";
import { api } from "../../lib/api.ts";
import { useCopy } from "../../lib/use-copy.ts";
import "./refer-modal.css";

export const referralKey = ["me", "referral"] as const;

export function ReferModal({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const referral = useQuery({
    queryKey: referralKey,
    queryFn: () => api<{ data: Referral }>("/api/me/referral").then((answer) => answer.data),
    enabled: open,
    // Each opening shows the counts as they are now (a friend may have joined meanwhile).
    staleTime: 0,
    refetchOnMount: "always",
  });

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={REFERRAL_TEXTS.title}
      description={REFERRAL_TEXTS.intro}
    >
      {referral.isPending ? (
        <LoadingView text="Loading your link..." />
      ) : referral.isError ? (
        <div className="refer__error" role="alert">
          <p>Your referral link could not be loaded.</p>
          <button type="button" className="btn" onClick={() => void referral.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <ReferralDetails referral={referral.data} />
      )}
    </Modal>
  );
}

function ReferralDetails({ referral }: { referral: Referral }) {
  const { isCopied, copy } = useCopy(() => {
    snackbar.error("Could not copy. Select the link and copy it instead.");
    return false;
  });
  const friends = referral.signUps === 1 ? "1 friend" : `${referral.signUps} friends`;
  const months = referral.rewarded === 1 ? "1 month" : `${referral.rewarded} months`;
  return (
    <div className="refer">
      <label className="refer__label" htmlFor="referral-link">
        Your referral link
      </label>
      <div className="refer__link">
        <input
          id="referral-link"
          className="input refer__input"
          readOnly
          value={referral.link}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="btn btn--primary" onClick={() => void copy(referral.link)}>
          {isCopied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
          {isCopied ? REFERRAL_TEXTS.copied : REFERRAL_TEXTS.copy}
        </button>
      </div>
      <dl className="refer__stats">
        <div>
          <dt>Signed up</dt>
          <dd>{friends}</dd>
        </div>
        <div>
          <dt>Earned</dt>
          <dd>
            {months} of Standard (up to {referral.maxRewards})
          </dd>
        </div>
      </dl>
      <p className="refer__status" role="status">
        {referral.standardUntil
          ? `Your Standard plan from referrals runs until ${new Date(referral.standardUntil).toLocaleDateString(undefined, { dateStyle: "long" })}.`
          : referral.signUps > referral.rewarded
            ? "A month is added as soon as your friend confirms their e-mail address."
            : "No friends have joined through your link yet."}
      </p>
    </div>
  );
}
