import type { ReactNode, Ref } from 'react';
import { LanguageSelector } from '@/components/language-selector';
import { Logo } from '@/components/ui/logo';
import { useAppTexts } from '@/hooks/use-public-settings';
import '@/features/auth/auth.css';

/**
 * The signed-out pages: the form card beside a feature panel (stacked on phones). `aside` is
 * a top-level landmark of its own, so it is rendered beside <main>, not inside it.
 */
export function AuthLayout({ children, aside }: { children: ReactNode; aside: ReactNode }) {
  const { logoText } = useAppTexts();
  return (
    <div className="auth-page">
      <div className="auth-card">
        <main className="auth-main">
          <div className="auth-main__top">
            <p className="auth-brand">
              <Logo size={32} />
              {logoText}
            </p>
            <LanguageSelector variant="simple" />
          </div>
          {children}
        </main>
        {aside}
      </div>
    </div>
  );
}

/** Page heading and lead text; the heading takes focus when a multi-step form changes step. */
export function AuthHeading({
  title,
  children,
  headingRef,
}: {
  title: string;
  children?: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <div className="auth-heading">
      <h1 ref={headingRef} tabIndex={-1}>
        {title}
      </h1>
      {children && <p className="auth-heading__lead">{children}</p>}
    </div>
  );
}
