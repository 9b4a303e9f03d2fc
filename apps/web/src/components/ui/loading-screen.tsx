/** Full-page wait state: a spinner for the eye, a status text for screen readers. */
export function LoadingScreen({ label }: { label: string }) {
  return (
    <div className="loading-screen" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
