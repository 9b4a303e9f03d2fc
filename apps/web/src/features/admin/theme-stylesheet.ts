/** The server's stylesheet of the admin's theme, linked from index.html. */
const THEME_PATH = '/theme.css';

/**
 * Loads /theme.css again after the theme was saved, so this page restyles without a reload. The
 * new link goes in beside the old one, which leaves only once the new one has loaded: the page
 * never shows the default colours in between. (Other pages and browsers get the new sheet on
 * their next load: the server answers it with `no-cache` and an ETag.)
 */
export function reloadThemeStylesheet(): void {
  const links = [
    ...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][href^="/theme.css"]'),
  ];
  const fresh = document.createElement('link');
  fresh.rel = 'stylesheet';
  // A new address, or the browser would keep the sheet it has.
  fresh.href = `${THEME_PATH}?v=${Date.now()}`;
  const dropOld = () => {
    for (const link of links) link.remove();
  };
  // A failed load leaves the old sheet in force: the theme is saved, and a reload shows it.
  fresh.addEventListener('load', dropOld, { once: true });
  const last = links.at(-1);
  if (last) last.after(fresh);
  else document.head.append(fresh);
}
