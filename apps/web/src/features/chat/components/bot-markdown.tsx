import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import { isAppPath } from '@/features/chat/app-path';

/**
 * What a reply may use. Everything else (images, which would load from anywhere, and raw HTML,
 * which react-markdown never renders without rehype-raw) is dropped, keeping its text.
 */
const ALLOWED_ELEMENTS = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'a',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
  'blockquote',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
];

function MarkdownLink({ href, children }: { href?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  // react-markdown has already emptied unsafe URLs (javascript: and the like).
  if (!href) return <>{children}</>;
  if (isAppPath(href)) return <Link to={href}>{children}</Link>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> ({t('agentChat.opensInNewTab')})</span>
    </a>
  );
}

/** Headings would break the page's outline: a reply's headings are bold paragraphs. */
function MarkdownHeading({ children }: { children?: ReactNode }) {
  return <p className="chat-md__heading">{children}</p>;
}

const components: Components = {
  a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  // Focusable: a long line scrolls sideways, and the keyboard must be able to scroll it too.
  pre: ({ children }) => <pre tabIndex={0}>{children}</pre>,
  h1: MarkdownHeading,
  h2: MarkdownHeading,
  h3: MarkdownHeading,
  h4: MarkdownHeading,
  h5: MarkdownHeading,
  h6: MarkdownHeading,
};

/**
 * A bot reply rendered as Markdown: paragraphs, lists, links and code. Its own chunk, loaded
 * when the first reply is shown (react-markdown and its parser are most of the chat's weight).
 */
export default function BotMarkdown({ text }: { text: string }) {
  return (
    <div className="chat-md">
      <Markdown allowedElements={ALLOWED_ELEMENTS} unwrapDisallowed components={components}>
        {text}
      </Markdown>
    </div>
  );
}
