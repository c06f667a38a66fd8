/**
 * Every route of SPEC §2. Pages load lazily (a failed chunk reloads the page, see chunk-reload.ts);
 * guards and the light layouts stay in the main bundle so the first paint never waits for two round trips;
 * the signed-in app layout is lazy too, so the signed-out landing page's first load stays small (issue #34).
 */
import type { ComponentType } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { LoadingView } from "./components/loading-view.tsx";
import { RouteError } from "./components/route-error.tsx";
import { RedirectVerifiedUser, RequireUser } from "./features/session/guards.tsx";
import { PublicLayout } from "./layouts/public-layout.tsx";
import { RootLayout } from "./layouts/root-layout.tsx";

type PageModule = Record<string, unknown>;

/** A lazy route whose module exports `name` as a component. */
function page(load: () => Promise<PageModule>, name: string): Pick<RouteObject, "lazy"> {
  return {
    lazy: async () => {
      const module = await load();
      return { Component: module[name] as ComponentType };
    },
  };
}

const integrationPages = () => import("./pages/integration-pages.tsx");
const projectsPage = () => import("./pages/projects-page.tsx");
const projectPage = () => import("./pages/project-page.tsx");
const sharePages = () => import("./pages/share-pages.tsx");
const signupPage = () => import("./pages/signup-page.tsx");
const teamPage = () => import("./pages/team-page.tsx");
const trackerReturn = () => import("./features/integrations/tracker-return-page.tsx");

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <LoadingView />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            element: <RedirectVerifiedUser />,
            children: [
              { path: "/", ...page(() => import("./pages/landing-page.tsx"), "LandingPage") },
              { path: "/signup", ...page(signupPage, "SignUpPage") },
            ],
          },
          // A verified user may open a privilege link too: the page keeps the grant, then goes on.
          {
            path: "/signup/start-privilege/:plan",
            ...page(signupPage, "PrivilegeSignUpPage"),
          },
          {
            path: "/forgot-password",
            ...page(() => import("./pages/forgot-password-page.tsx"), "ForgotPasswordPage"),
          },
          { path: "/user-action", ...page(() => import("./pages/user-action-page.tsx"), "UserActionPage") },
          { path: "/unsubscribe", ...page(() => import("./pages/unsubscribe-page.tsx"), "UnsubscribePage") },
          { path: "/dev/mailbox", ...page(() => import("./pages/mailbox-page.tsx"), "MailboxPage") },

          // Public views; an embed has no chrome of its own (it sits inside someone else's page).
          {
            element: <PublicLayout />,
            children: [
              { path: "/share", element: <Navigate to="/" replace /> },
              { path: "/share/:projectId", ...page(sharePages, "SharePage") },
              { path: "/preview", element: <Navigate to="/" replace /> },
              { path: "/preview/:projectId/:pageId/:versionId", ...page(sharePages, "PreviewPage") },
              {
                path: "/request-review",
                ...page(() => import("./pages/request-review-page.tsx"), "RequestReviewPage"),
              },
            ],
          },
          { path: "/embed/:projectId", ...page(sharePages, "EmbedPage") },

          // Signed-in, verified users only
          {
            element: <RequireUser />,
            children: [
              {
                // The signed-in chrome loads with the first signed-in page, not with the landing page.
                ...page(() => import("./layouts/app-layout.tsx"), "AppLayout"),
                children: [
                  { path: "/projects", ...page(projectsPage, "ProjectsPage") },
                  { path: "/projects/web", ...page(projectsPage, "ProjectsPage") },
                  { path: "/projects/illustration", ...page(projectsPage, "ProjectsPage") },
                  { path: "/projects/archived", ...page(projectsPage, "ProjectsPage") },
                  {
                    path: "/project/:projectId",
                    ...page(projectPage, "ProjectLayout"),
                    children: [
                      { index: true, ...page(projectPage, "ProjectHomePage") },
                      { path: "archived", ...page(projectPage, "ProjectArchivedPage") },
                      { path: ":pageId", ...page(projectPage, "ProjectHomePage") },
                      { path: ":pageId/:versionId/:currentView", ...page(projectPage, "ReviewPage") },
                    ],
                  },
                  { path: "/team", ...page(teamPage, "TeamPage") },
                  { path: "/team/:teamId", ...page(teamPage, "TeamPage") },
                  { path: "/profile", ...page(() => import("./pages/profile-page.tsx"), "ProfilePage") },
                  {
                    path: "/profile/checkout-complete",
                    ...page(() => import("./pages/profile-page.tsx"), "ProfilePage"),
                  },
                  { path: "/billing", ...page(() => import("./pages/billing-page.tsx"), "BillingPage") },
                  { path: "/upgrade", ...page(() => import("./pages/upgrade-page.tsx"), "UpgradePage") },
                  {
                    path: "/upgrade/confirm/:plan",
                    ...page(() => import("./pages/payment-summary-page.tsx"), "PaymentSummaryPage"),
                  },
                  {
                    path: "/payment-success/:planId",
                    ...page(
                      () => import("./features/billing/payment-success-redirect.tsx"),
                      "PaymentSuccessRedirect",
                    ),
                  },
                  { path: "/offers", ...page(() => import("./pages/offers-page.tsx"), "OffersPage") },
                  { path: "/help", ...page(() => import("./pages/help-page.tsx"), "HelpPage") },
                  {
                    path: "/extension",
                    ...page(() => import("./pages/extension-page.tsx"), "ExtensionPage"),
                  },
                  {
                    path: "/extension/connect",
                    ...page(() => import("./pages/extension-page.tsx"), "ExtensionConnectPage"),
                  },
                  { path: "/admin", ...page(() => import("./pages/admin-page.tsx"), "AdminPage") },
                  { path: "/integration/trello", ...page(trackerReturn, "TrelloReturnPage") },
                  { path: "/integration/clickup", ...page(trackerReturn, "ClickupReturnPage") },
                  { path: "/integration/github", ...page(trackerReturn, "GithubReturnPage") },
                  { path: "/integration/asana", ...page(trackerReturn, "AsanaReturnPage") },
                  { path: "/integration/jira", ...page(trackerReturn, "JiraReturnPage") },
                  { path: "/integration/:app", ...page(integrationPages, "IntegrationMissingProjectPage") },
                  { path: "/integration/:app/:projectId", ...page(integrationPages, "IntegrationPage") },
                ],
              },
            ],
          },

          { path: "*", ...page(() => import("./pages/not-found-page.tsx"), "NotFoundPage") },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
