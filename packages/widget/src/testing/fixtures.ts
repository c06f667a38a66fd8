/** Fixture pages of a "customer's site" that embeds the widget, with secrets the widget must not send. */
export const SECRETS = {
  password: "hunter2-pa55word",
  card: "4242 4242 4242 4242",
  notes: "my private notes 9876",
  ssn: "SSN 123-45-6789",
  maskedButton: "masked-label-555",
} as const;

export function shopPage(
  appOrigin: string,
  options: { trigger?: "hidden"; replay?: boolean; logs?: number } = {},
): string {
  const attributes = [
    `src="${appOrigin}/widget/v1/redline.js"`,
    'data-key="test-key-123456"',
    options.trigger ? `data-trigger="${options.trigger}"` : "",
    options.replay ? 'data-replay="true"' : "",
    "async",
  ].join(" ");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Shop checkout</title>
<style>
  body { margin: 0; font: 16px/1.4 sans-serif; background: #fff; color: #000 }
  main { padding: 24px }
  input, textarea { display: block; font: 24px monospace; width: 420px; margin: 8px 0; padding: 6px; border: 1px solid #888; background: #fff; color: #000 }
  #ssn { font: 28px monospace; padding: 8px; width: 420px; background: #fff; color: #000 }
  #pay { font: 20px sans-serif; padding: 10px 20px; background: oklch(0.6 0.2 250); color: white; border: 0 }
</style>
<script ${attributes}></script>
</head><body><main>
  <h1>Checkout</h1>
  <input id="password" type="password" value="${SECRETS.password}" aria-label="Password">
  <input id="card" type="text" value="${SECRETS.card}" aria-label="Card">
  <textarea id="notes" aria-label="Notes">${SECRETS.notes}</textarea>
  <div id="ssn" data-redline-mask>${SECRETS.ssn}</div>
  <button id="pay">Pay now <span data-redline-mask>${SECRETS.maskedButton}</span></button>
</main>
<script>
  window.addEventListener("load", () => {
    for (let i = 0; i < ${options.logs ?? 3}; i++) console.log("log line " + i);
    console.info("info here");
    console.warn("careful", { step: 2 });
    console.error("Payment failed: card declined");
    setTimeout(() => { throw new Error("Boom from the page"); });
    Promise.reject(new Error("Nobody caught me"));
    fetch("/api/missing").catch(() => {});
    fetch("http://127.0.0.1:9/unreachable").catch(() => {});
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/broken");
    xhr.send("{}");
    fetch(location.pathname).catch(() => {});
  });
</script>
</body></html>`;
}
