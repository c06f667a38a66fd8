/**
 * The router's error element: a failed chunk import reloads the page once (SPEC §8); a 404 response
 * shows the not-found page; anything else shows the generic error screen.
 */
import { useEffect, useState } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { isChunkLoadError, reloadOnceForChunkError } from "../lib/chunk-reload.ts";
import { ErrorPage } from "./error-page.tsx";
import { ErrorScreen } from "./error-screen.tsx";
import { LoadingView } from "./loading-view.tsx";

export function RouteError() {
  const error = useRouteError();
  const isChunkError = isChunkLoadError(error);
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    if (isChunkError && !reloadOnceForChunkError()) setGaveUp(true);
  }, [isChunkError]);

  useEffect(() => {
    if (!isChunkError && !isRouteErrorResponse(error)) console.error(error);
  }, [error, isChunkError]);

  if (isRouteErrorResponse(error)) return <ErrorPage code={error.status} />;
  if (isChunkError && !gaveUp) return <LoadingView />;
  return <ErrorScreen />;
}
