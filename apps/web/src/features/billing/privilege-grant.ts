/**
 * A privilege link (`/signup/start-privilege/{plan}?token=…`, SPEC §2, §7) is kept in localStorage until
 * it can be taken: the visitor must sign up and verify their e-mail first, and the verification link
 * may open in another tab. The app layout takes it once a verified user is signed in.
 */
import { PLANS, type PrivilegeRedeemInput, privilegeRedeemSchema } from "@redline/shared";

export const PRIVILEGE_STORAGE_KEY = "redline.privilege";

export type PrivilegePlan = PrivilegeRedeemInput["plan"];

/** The grant a link carries, or null when its plan or token is missing or not one a link may grant. */
export function parsePrivilege(plan: string | undefined, token: string | null): PrivilegeRedeemInput | null {
  const parsed = privilegeRedeemSchema.safeParse({ plan, token });
  return parsed.success ? parsed.data : null;
}

/** 'Team', 'Pro' or 'Standard'. */
export function privilegePlanName(plan: PrivilegePlan): string {
  return PLANS.web[plan].name;
}

export function storePrivilege(grant: PrivilegeRedeemInput): void {
  try {
    localStorage.setItem(PRIVILEGE_STORAGE_KEY, JSON.stringify(grant));
  } catch {
    // Storage off (private mode, quota): the link still signs the visitor up, without the plan.
  }
}

export function readStoredPrivilege(): PrivilegeRedeemInput | null {
  try {
    const text = localStorage.getItem(PRIVILEGE_STORAGE_KEY);
    if (!text) return null;
    const parsed = privilegeRedeemSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Unreadable: treated like a broken entry below.
  }
  clearStoredPrivilege();
  return null;
}

export function clearStoredPrivilege(): void {
  try {
    localStorage.removeItem(PRIVILEGE_STORAGE_KEY);
  } catch {
    // Nothing to clear.
  }
}
