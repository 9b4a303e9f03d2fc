import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { ChevronIcon } from '@/components/ui/action-icons';
import { useMediaQuery } from '@/hooks/use-media-query';
import { cx } from '@/lib/cx';

/** Where the header shows tabs instead of the phone's Menu (app-layout.css). */
export const WIDE_HEADER = '(min-width: 48rem)';

/** A header link's classes: the current page's is marked. */
export const navClass = ({ isActive }: { isActive: boolean }) =>
  cx('app-nav__link', isActive && 'app-nav__link--active');

/**
 * The admin pages (panel, images, monitor, logs), grouped so that they stay in reach however many
 * agents fill the row of tabs. On wider screens a disclosure button opens them (Enter, Space or
 * ArrowDown open it on the first page, ArrowUp on the last; the arrows, Home and End move between
 * them; Escape closes it back on the button; Tab away or a click elsewhere closes it). In the
 * phone's Menu they are listed under a heading: the Menu is the disclosure.
 */
export function AdminMenu() {
  const { t } = useTranslation();
  const wide = useMediaQuery(WIDE_HEADER);
  const listId = useId();
  const headingId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();

  const pages = [
    { to: '/admin', label: t('nav.admin') },
    { to: '/images', label: t('nav.images') },
    { to: '/monitor', label: t('nav.monitor') },
    { to: '/logs', label: t('nav.logs') },
  ];
  const current = pages.some(({ to }) => pathname === to || pathname.startsWith(`${to}/`));

  const links = () =>
    Array.from(containerRef.current?.querySelectorAll('a[href]') ?? []) as HTMLElement[];

  // Focus moves once the list is in the page.
  const pendingFocus = useRef<'first' | 'last' | null>(null);
  useEffect(() => {
    if (!open || !pendingFocus.current) return;
    const all = links();
    (pendingFocus.current === 'first' ? all[0] : all.at(-1))?.focus();
    pendingFocus.current = null;
  }, [open]);

  // A click elsewhere closes it; so does Escape with the focus outside it (on the page's body,
  // where a click on the button leaves it in some browsers), unless something else took that
  // Escape first (the menu's own handler below marks it).
  useEffect(() => {
    if (!open) return;
    const handlePointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !containerRef.current?.contains(event.target))
        setOpen(false);
    };
    const handleEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', handlePointerDown);
    document.addEventListener('keydown', handleEscape);
    return () => {
      document.removeEventListener('pointerdown', handlePointerDown);
      document.removeEventListener('keydown', handleEscape);
    };
  }, [open]);

  if (!wide) {
    return (
      <div className="app-nav__group" role="group" aria-labelledby={headingId}>
        <span id={headingId} className="app-nav__group-title">
          {t('nav.adminMenu')}
        </span>
        <ul className="app-nav__list">
          {pages.map(({ to, label }) => (
            <li key={to}>
              <NavLink to={to} className={navClass}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  const openAt = (where: 'first' | 'last') => {
    pendingFocus.current = where;
    if (open) {
      const all = links();
      (where === 'first' ? all[0] : all.at(-1))?.focus();
      pendingFocus.current = null;
    } else setOpen(true);
  };

  const handleButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown') {
      event.preventDefault();
      if (open && event.key !== 'ArrowDown') setOpen(false);
      else openAt('first');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt('last');
    }
  };

  const handleListKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const all = links();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const move: Record<string, number | undefined> = {
      ArrowDown: (index + 1) % all.length,
      ArrowUp: (index - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    };
    const next = move[event.key];
    if (next !== undefined) {
      event.preventDefault();
      all[next]?.focus();
    }
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open) return;
    // Handled here: the header's own Escape (closing the phone Menu) leaves it alone.
    event.preventDefault();
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div
      ref={containerRef}
      className="admin-menu"
      onKeyDown={handleKeyDown}
      onBlur={(event) => {
        if (!(
          event.relatedTarget instanceof Node && containerRef.current?.contains(event.relatedTarget)
        )) {
          setOpen(false);
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={cx('app-nav__link', 'admin-menu__button', current && 'app-nav__link--active')}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={handleButtonKeyDown}
      >
        {t('nav.adminMenu')}
        <ChevronIcon />
      </button>
      <ul id={listId} className="admin-menu__list" hidden={!open} onKeyDown={handleListKeyDown}>
        {pages.map(({ to, label }) => (
          <li key={to}>
            <NavLink to={to} className={navClass} onClick={() => setOpen(false)}>
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
