/**
 * The header's product switcher (SPEC §1): website feedback and bug tracking switch the tab's product;
 * customer feedback is coming soon (opens a page about it elsewhere); video review is in the pipeline.
 */
import { CUSTOMER_FEEDBACK_URL, type HandoffLink, PRODUCT_SWITCHER, type Product } from "@redline/shared";
import {
  Bug,
  Check,
  ChevronDown,
  ExternalLink,
  MessageSquareText,
  MonitorPlay,
  PanelsTopLeft,
} from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useNavigate } from "react-router";
import { api } from "../../lib/api.ts";
import { chooseProduct, switchTarget } from "../../lib/product.ts";
import { useHostDecidesProduct, useProduct, usePublicConfig } from "../../lib/use-product.ts";

const ICONS = {
  web: PanelsTopLeft,
  browse: Bug,
  "customer-feedback": MessageSquareText,
  video: MonitorPlay,
} as const;

/**
 * The other host's address with a one-time hand-off, so the person arrives signed in there as here (a
 * session cookie belongs to one host); the plain address when the hand-off cannot be had.
 */
async function signedInOn(address: string): Promise<string> {
  const url = new URL(address);
  try {
    const { data } = await api<{ data: HandoffLink }>("/api/session/handoff", {
      method: "POST",
      body: { to: url.origin, next: `${url.pathname}${url.search}` },
    });
    return data.url;
  } catch {
    return address;
  }
}

export function ProductSwitcher() {
  const product = useProduct();
  const hostDecides = useHostDecidesProduct();
  const { data: config } = usePublicConfig();
  const navigate = useNavigate();
  const current = PRODUCT_SWITCHER.find((entry) => entry.id === product)!;

  const handlePick = (next: Product) => {
    const hosts = config?.products ?? { webUrl: window.location.origin, browseUrl: null };
    const target = switchTarget(next, { origin: window.location.origin, hostDecides }, hosts);
    if (target === null) return;
    if (target.kind === "navigate") {
      signedInOn(target.url).then((url) => window.location.assign(url));
      return;
    }
    if (next === product) return;
    chooseProduct(next);
    navigate("/projects");
  };

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="product-switcher" aria-label={`Product: ${current.label}`}>
        <span className="product-switcher__label">{current.label}</span>
        <ChevronDown size={14} aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={8}>
          <DropdownMenu.Label className="menu__heading">Products</DropdownMenu.Label>
          {PRODUCT_SWITCHER.map((entry) => {
            const Icon = ICONS[entry.id];
            if (entry.id === "web" || entry.id === "browse") {
              const id = entry.id;
              return (
                <DropdownMenu.Item key={id} className="menu__item" onSelect={() => handlePick(id)}>
                  <Icon size={16} aria-hidden /> {entry.label}
                  {id === product ? (
                    <Check size={16} aria-label="Current product" className="menu__check" />
                  ) : null}
                </DropdownMenu.Item>
              );
            }
            if (entry.id === "customer-feedback")
              return (
                <DropdownMenu.Item key={entry.id} className="menu__item" asChild>
                  <a href={CUSTOMER_FEEDBACK_URL} target="_blank" rel="noreferrer">
                    <Icon size={16} aria-hidden /> {entry.label}
                    <span className="menu__note">{entry.note}</span>
                    <ExternalLink size={14} aria-hidden />
                  </a>
                </DropdownMenu.Item>
              );
            return (
              <DropdownMenu.Item key={entry.id} className="menu__item" disabled>
                <Icon size={16} aria-hidden /> {entry.label}
                <span className="menu__note">{entry.note}</span>
              </DropdownMenu.Item>
            );
          })}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
