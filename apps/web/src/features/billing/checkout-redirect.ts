/** Leaves the app for the payment provider's checkout page (a module of its own so tests can stand in). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}
