/** Account Settings' heading and its tabs (SPEC §2): Account at `/profile`, Billing at `/billing`. */
import { NavLink } from "react-router";
import "./settings-header.css";

export function SettingsHeader() {
  return (
    <>
      <h1 className="settings-header__title">Account Settings</h1>
      <nav className="tabs settings-tabs" aria-label="Settings">
        <NavLink to="/profile" className="tabs__tab">
          Account
        </NavLink>
        <NavLink to="/billing" className="tabs__tab">
          Billing
        </NavLink>
      </nav>
    </>
  );
}
