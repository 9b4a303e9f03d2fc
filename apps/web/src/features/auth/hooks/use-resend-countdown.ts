import { OTP_RESEND_SECONDS } from '@contrateia/shared';
import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left before another code may be requested (60 s, ticking each second). Runs from a
 * deadline, so a throttled background tab still shows the true time when it wakes. `sentAt` is when
 * the code was sent (now unless given: a code step restored after a reload goes on from the first
 * send); `restart` starts again, from the full cooldown or from the wait the server gave.
 */
export function useResendCountdown(sentAt?: number) {
  const [deadline, setDeadline] = useState(
    () => (sentAt ?? Date.now()) + OTP_RESEND_SECONDS * 1000,
  );
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / 1000));
  const running = secondsLeft > 0;

  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running, deadline]);

  const restart = useCallback((seconds: number = OTP_RESEND_SECONDS) => {
    const start = Date.now();
    setNow(start);
    setDeadline(start + seconds * 1000);
  }, []);

  return { secondsLeft, restart };
}
