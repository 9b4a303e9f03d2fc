import type { ReactNode } from 'react';

/** The form's sections, in page order: the section nav links to each by its id. */
export const SECTIONS = [
  'business',
  'hours',
  'catalogue',
  'faq',
  'documents',
  'instructions',
] as const;
export type SectionName = (typeof SECTIONS)[number];

export const sectionId = (name: SectionName) => `my-agent-section-${name}`;

/** One part of the form: its heading (a target of the section nav), what it is for, its fields. */
export function FormSection({
  name,
  title,
  intro,
  children,
}: {
  name: SectionName;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  const id = sectionId(name);
  return (
    <section id={id} className="my-agent-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="my-agent-section__title" tabIndex={-1}>
        {title}
      </h2>
      <p className="my-agent-section__intro">{intro}</p>
      {children}
    </section>
  );
}

/** The error of a whole list (too many rows), above its rows; nothing when there is none. */
export function ListError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p className="field__error" role="alert">
      {error}
    </p>
  );
}
