// The avatar menu of wide screens (docs/product.md, "Shell"), built as an ARIA menu button: Enter,
// Space or ArrowDown open it, arrows move between items, Escape or Tab close it.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { Link, useLocation } from "react-router";
import type { MeUser } from "../../../shared/contracts/session.ts";
import { usePrograms } from "../learning/catalog.seam.ts";

/** The first and last names' letters: "Akosua Adjoa Mensah" is AM (docs/product.md, "Shell"). */
function initialsOf(user: MeUser): string {
  const words = user.name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const letters = first ? [first.charAt(0), last?.charAt(0) ?? ""] : [user.email.charAt(0)];
  return letters.join("").toUpperCase();
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
}

type AccountMenuProps = { user: MeUser; signingOut: boolean; onSignOut(): void };

export function AccountMenu(props: AccountMenuProps) {
  const { user } = props;
  const { open, setOpen, rootRef, buttonRef, menuRef } = useMenuOpen();
  const id = useId();
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;
  const summaryId = `${id}-summary`;

  function onButtonKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowDown" && !open) {
      event.preventDefault();
      setOpen(true);
    }
  }

  return (
    <div className="account-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className="avatar-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((isOpen) => !isOpen)}
        onKeyDown={onButtonKeyDown}
      >
        {initialsOf(user)}
        <span className="visually-hidden"> account menu</span>
      </button>
      {open && (
        <AccountPanel
          {...props}
          ids={{ button: buttonId, menu: menuId, summary: summaryId }}
          menuRef={menuRef}
          onMenuKeyDown={(event) => moveMenuFocus(event, menuRef.current, () => setOpen(false))}
        />
      )}
    </div>
  );
}

/**
 * Whether the menu is open, with the closing it does by itself: on a page change, a pointer
 * outside it, or Escape. Opening it puts the focus on its first item.
 */
function useMenuOpen() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const [menuLocation, setMenuLocation] = useState(location.key);
  // Close the menu whenever the page changes.
  if (menuLocation !== location.key) {
    setMenuLocation(location.key);
    setOpen(false);
  }
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!open) return;
    menuItems(menuRef.current)[0]?.focus();
    const closeOnOutsidePointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    const closeOnEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const hadFocus = rootRef.current?.contains(document.activeElement) ?? false;
      setOpen(false);
      if (hadFocus) buttonRef.current?.focus();
    };
    document.addEventListener("pointerdown", closeOnOutsidePointer);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("pointerdown", closeOnOutsidePointer);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, [open]);

  return { open, setOpen, rootRef, buttonRef, menuRef };
}

/** The menu's own keys: arrows, Home and End move between the items; Tab leaves, closing it. */
function moveMenuFocus(event: KeyboardEvent, menu: HTMLElement | null, close: () => void) {
  const items = menuItems(menu);
  const index = items.findIndex((item) => item === document.activeElement);
  const focusAt = (next: number) => items[(next + items.length) % items.length]?.focus();
  switch (event.key) {
    case "ArrowDown":
      event.preventDefault();
      focusAt(index + 1);
      break;
    case "ArrowUp":
      event.preventDefault();
      focusAt(index - 1);
      break;
    case "Home":
      event.preventDefault();
      focusAt(0);
      break;
    case "End":
      event.preventDefault();
      focusAt(items.length - 1);
      break;
    case "Tab":
      close();
      break;
  }
}

type AccountPanelProps = AccountMenuProps & {
  ids: { button: string; menu: string; summary: string };
  menuRef: RefObject<HTMLUListElement | null>;
  onMenuKeyDown: (event: KeyboardEvent) => void;
};

/** The open menu: who is signed in, then the items. */
function AccountPanel({ user, signingOut, onSignOut, ids, menuRef, onMenuKeyDown }: AccountPanelProps) {
  return (
    <div className="account-panel">
      <div id={ids.summary} className="account-summary">
        <p className="account-email">{user.email}</p>
        <p>Access Level: {user.accessLevel}</p>
        <p className="account-programs-label">Programs:</p>
        <AvailablePrograms user={user} />
      </div>
      <ul
        ref={menuRef}
        id={ids.menu}
        role="menu"
        aria-labelledby={ids.button}
        aria-describedby={ids.summary}
        className="account-actions"
        onKeyDown={onMenuKeyDown}
      >
        <li role="none">
          <Link role="menuitem" tabIndex={-1} to="/subscription">
            Manage Subscription
          </Link>
        </li>
        <li role="none">
          <Link role="menuitem" tabIndex={-1} to="/account">
            Your Account
          </Link>
        </li>
        {user.plan === "advanced" && (
          <li role="none">
            <Link role="menuitem" tabIndex={-1} to="/mentorship">
              1-on-1 Mentorship
            </Link>
          </li>
        )}
        {user.isAdmin && (
          <li role="none">
            <Link role="menuitem" tabIndex={-1} to="/admin">
              Admin Panel
            </Link>
          </li>
        )}
        <li role="none">
          <button role="menuitem" tabIndex={-1} type="button" disabled={signingOut} onClick={onSignOut}>
            {signingOut ? "Logging out..." : "Logout"}
          </button>
        </li>
      </ul>
    </div>
  );
}

/**
 * The programs the plan opens, by title, every program of each level it opens (docs/product.md,
 * "Shell"); the levels' names until the catalogue has come.
 */
function AvailablePrograms({ user }: { user: MeUser }) {
  const programs = usePrograms();
  const names = programs.data
    ? programs.data.filter((program) => user.tracks.includes(program.level)).map((program) => program.title)
    : user.tracks.map(capitalize);
  return (
    <ul className="account-programs">
      {names.map((name, index) => (
        <li key={`${index}-${name}`}>{name}</li>
      ))}
    </ul>
  );
}
