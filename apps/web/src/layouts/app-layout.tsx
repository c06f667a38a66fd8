/**
 * Signed-in dashboard routes: the header, the payment-issue notice and the offer bar under it (each
 * decides by route whether it shows), the page, the floating 'Need help?' button, and the onboarding
 * screens of a new user (features/onboarding, loaded only when one is due). A privilege link
 * kept from sign-up is taken here, wherever the user lands after verifying their e-mail.
 */
import { loadingText } from "@redline/shared";
import { Suspense, useState } from "react";
import { Outlet } from "react-router";
import { CardActionsProvider } from "../components/card-actions.tsx";
import { LoadingView } from "../components/loading-view.tsx";
import { OfferBar } from "../features/billing/offer-bar.tsx";
import { PaymentNotice } from "../features/billing/payment-notice.tsx";
import { useStoredPrivilege } from "../features/billing/use-stored-privilege.ts";
import { useUpsellPlan } from "../features/billing/use-upsell-plan.ts";
import { MessagesButton } from "../features/conversations/messages-button.tsx";
import { useNeedHelp } from "../features/conversations/need-help.ts";
import { Header } from "../features/header/header.tsx";
import { TrackerCardActions } from "../features/integrations/tracker-card-actions.tsx";
import { NotificationsBell } from "../features/notifications/notifications-bell.tsx";
import { OnboardingHost } from "../features/onboarding/onboarding-host.tsx";
import { ReferModal } from "../features/referrals/refer-modal.tsx";
import { useMe } from "../features/session/use-me.ts";
import { ContactModal } from "../features/support/contact-modal.tsx";
import { SupportDialogs } from "../features/support/support-dialogs.tsx";
import { useTeamBranding } from "../features/teams/branding.ts";
import { useViewAnalytics } from "../lib/analytics.ts";
import { useProduct } from "../lib/use-product.ts";
import "./app-layout.css";

export function AppLayout() {
  const { data: me } = useMe();
  const product = useProduct();
  const openNeedHelp = useNeedHelp();
  const [isContactOpen, setContactOpen] = useState(false);
  const [isReferralOpen, setReferralOpen] = useState(false);
  useStoredPrivilege(me);
  useViewAnalytics();
  // The active team's theme and favicon, app-wide (SPEC §2, §4); its logo goes in the header.
  const brand = useTeamBranding();
  const upsellPlan = useUpsellPlan(me, product);
  // RequireUser renders this only with a verified user.
  if (!me) return <LoadingView />;
  // A new user's first visit (the tour not yet seen) says so while its screens load (SPEC §2).
  const fallbackText = loadingText({ isFirstVisit: me.onboarding.featureTour !== true });
  return (
    <div className="app-layout">
      <Header
        user={me}
        brand={brand}
        bell={<NotificationsBell notificationSound={me.notificationSound} />}
        messages={<MessagesButton />}
        onContact={() => setContactOpen(true)}
        onReferral={() => setReferralOpen(true)}
      />
      <ReferModal open={isReferralOpen} onOpenChange={setReferralOpen} />
      <ContactModal open={isContactOpen} onOpenChange={setContactOpen} email={me.email} />
      <SupportDialogs user={me} />
      <OnboardingHost user={me} />
      <PaymentNotice paymentIssue={me.paymentIssue} />
      {upsellPlan ? <OfferBar plan={upsellPlan} /> : null}
      <div className="app-layout__main">
        <Suspense fallback={<LoadingView text={fallbackText} />}>
          <CardActionsProvider value={TrackerCardActions}>
            <Outlet />
          </CardActionsProvider>
        </Suspense>
      </div>
      <button type="button" className="need-help" onClick={openNeedHelp}>
        Need help?
      </button>
    </div>
  );
}
