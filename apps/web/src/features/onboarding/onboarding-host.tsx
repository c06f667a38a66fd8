/**
 * The first minutes (SPEC §1, §2, §9): decides which onboarding screen shows now — one at a time, each
 * once (`nextOnboardingScreen`) — and loads it on demand, so none of them costs the landing page or a
 * returning user a byte. The product-splitting intro waits 1 s after the page loads (SPEC §9).
 */
import { nextOnboardingScreen, PRODUCT_SPLITTING_DELAY_MS, type User } from "@redline/shared";
import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { useProduct } from "../../lib/use-product.ts";
import { type OnboardingFlag, useOnboardingFlag } from "./use-onboarding-flag.ts";

const ProfileSetup = lazy(() => import("./profile-setup.tsx").then((m) => ({ default: m.ProfileSetup })));
const FeatureTour = lazy(() => import("./feature-tour.tsx").then((m) => ({ default: m.FeatureTour })));
const ProductSplittingIntro = lazy(() =>
  import("./product-splitting-intro.tsx").then((m) => ({ default: m.ProductSplittingIntro })),
);
const DemoModal = lazy(() => import("./demo-modal.tsx").then((m) => ({ default: m.DemoModal })));

export function OnboardingHost({ user }: { user: User }) {
  const { pathname } = useLocation();
  const product = useProduct();
  const markSeen = useOnboardingFlag();
  const screen = nextOnboardingScreen(user, { pathname, product });
  const isDelayed = screen === "introduceProductSplitting";
  const [isDue, setDue] = useState(!isDelayed);
  useEffect(() => {
    if (!isDelayed) return setDue(true);
    setDue(false);
    const timer = setTimeout(() => setDue(true), PRODUCT_SPLITTING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isDelayed]);

  if (!screen || !isDue) return null;
  const close = (flag: OnboardingFlag) => () => markSeen(flag);
  return (
    <Suspense fallback={null}>
      {screen === "profileSetup" ? <ProfileSetup user={user} onDone={close("profileSetup")} /> : null}
      {screen === "featureTour" ? <FeatureTour open onClose={close("featureTour")} /> : null}
      {screen === "introduceProductSplitting" ? (
        <ProductSplittingIntro onClose={close("introduceProductSplitting")} />
      ) : null}
      {screen === "demoModal" ? <DemoModal onClose={close("demoModal")} /> : null}
    </Suspense>
  );
}
