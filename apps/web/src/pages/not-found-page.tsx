import { ErrorPage } from "../components/error-page.tsx";

export function NotFoundPage() {
  return <ErrorPage code={404} />;
}
