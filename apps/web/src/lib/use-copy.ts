/** Copies text to the clipboard and says so for 2 s; `onFail` runs where the clipboard API refuses. */
import { useEffect, useState } from "react";

export function useCopy(onFail: () => boolean) {
  const [isCopied, setCopied] = useState(false);
  useEffect(() => {
    if (!isCopied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [isCopied]);

  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // The fallback says whether it copied after all.
      if (onFail()) setCopied(true);
    }
  };
  return { isCopied, copy };
}
