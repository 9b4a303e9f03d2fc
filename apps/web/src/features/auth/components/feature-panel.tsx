import { useId, type ReactNode } from 'react';

export interface FeatureItem {
  icon: ReactNode;
  title: string;
  description: string;
}

/** The marketing side of the sign-in pages: a title and a list of feature blurbs. */
export function FeaturePanel({
  title,
  lead,
  items,
}: {
  title: string;
  lead?: string;
  items: FeatureItem[];
}) {
  const headingId = useId();
  return (
    <aside className="auth-aside" aria-labelledby={headingId}>
      <h2 id={headingId} className="auth-aside__title">
        {title}
      </h2>
      {lead && <p className="auth-aside__lead">{lead}</p>}
      <ul className="feature-list">
        {items.map((item) => (
          <li key={item.title} className="feature-list__item">
            <span className="feature-list__icon">{item.icon}</span>
            <div>
              <h3 className="feature-list__title">{item.title}</h3>
              <p className="feature-list__text">{item.description}</p>
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}
