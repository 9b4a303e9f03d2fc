/**
 * The app's mark (public/favicon.svg's drawing) in the admin's theme: a square of the theme's
 * primary-to-secondary gradient (the design tokens /theme.css sets, so it follows a theme change
 * as the rest of the page does) under a white speech bubble whose three dots let it show through.
 * Drawn by CSS (`.logo` in ui.css): no script in /login's download for it. Decorative: the
 * brand's text beside it names it.
 */
export function Logo({ size }: { size: number }) {
  return <span className="logo" style={{ width: size, height: size }} aria-hidden="true" />;
}
