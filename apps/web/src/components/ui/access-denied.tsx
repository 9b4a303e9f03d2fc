import { Link } from 'react-router';

/**
 * A page this account may not open (an admin page, to a user or an admin in user mode): the
 * server refuses it the page's calls too. Says why, with the way back to the dashboard; the
 * texts are the page's own.
 */
export function AccessDenied({ title, text, back }: { title: string; text: string; back: string }) {
  return (
    <div className="page-message">
      <h1>{title}</h1>
      <p>{text}</p>
      <Link to="/dashboard">{back}</Link>
    </div>
  );
}
