import { useEffect, useState } from 'react';

/**
 * Whole seconds left until `deadline` (epoch ms; null: none), ticking each second. Runs from the
 * deadline, as the resend countdown does, so a throttled background tab still shows the true time.
 */
export function useRetryCountdown(deadline: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));
  const running = secondsLeft > 0;

  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running, deadline]);

  return secondsLeft;
}
