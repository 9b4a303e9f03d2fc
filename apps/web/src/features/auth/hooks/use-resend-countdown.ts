import { OTP_RESEND_SECONDS } from '@contrateia/shared';
import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left before another code may be requested (spec §4: 60, ticking each second). Runs
 * from a deadline, so a throttled background tab still shows the true time when it wakes.
 */
export function useResendCountdown() {
  const [deadline, setDeadline] = useState(() => Date.now() + OTP_RESEND_SECONDS * 1000);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / 1000));
  const running = secondsLeft > 0;

  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running, deadline]);

  const restart = useCallback(() => {
    const start = Date.now();
    setNow(start);
    setDeadline(start + OTP_RESEND_SECONDS * 1000);
  }, []);

  return { secondsLeft, restart };
}
