import { Link } from 'react-router';
import '@/components/ui/page-message.css';

/**
 * A signed-in page this account may not open (/admin, /monitor…): what happened, why, and the
 * way back to the dashboard. The server refuses the page's calls anyway; this says it in words.
 */
export function AccessDenied({
  title,
  text,
  backLabel,
}: {
  title: string;
  text: string;
  backLabel: string;
}) {
  return (
    <div className="page-message">
      <h1>{title}</h1>
      <p>{text}</p>
      <Link to="/dashboard">{backLabel}</Link>
    </div>
  );
}
