import { useCallback, useEffect, useState } from 'react';

interface Countdown {
  endsAt: number;
  secondsLeft: number;
}

const countdownOf = (seconds: number): Countdown => ({
  endsAt: Date.now() + seconds * 1000,
  secondsLeft: seconds,
});

/**
 * Seconds left of a countdown started by start(seconds), down to 0. Each tick takes at least one
 * second off and catches up with the time that has passed: a tab asleep (a Chromebook's lid closed)
 * gets no ticks, and a clock set back never makes it count up.
 */
export function useCountdown(initialSeconds = 0): { secondsLeft: number; start: (seconds: number) => void } {
  const [countdown, setCountdown] = useState(() => countdownOf(initialSeconds));
  useEffect(() => {
    if (countdown.secondsLeft <= 0) return;
    const timer = setTimeout(() => {
      const byClock = Math.ceil((countdown.endsAt - Date.now()) / 1000);
      setCountdown({ ...countdown, secondsLeft: Math.max(0, Math.min(countdown.secondsLeft - 1, byClock)) });
    }, 1000);
    return () => clearTimeout(timer);
  }, [countdown]);
  const start = useCallback((seconds: number) => setCountdown(countdownOf(seconds)), []);
  return { secondsLeft: countdown.secondsLeft, start };
}
