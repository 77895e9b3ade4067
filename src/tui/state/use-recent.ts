import { useEffect, useState } from 'react';

/** True from `at` (a Date.now() time) until `forMs` later; re-renders once when it turns false. */
export function useRecent(at: number | undefined, forMs: number): boolean {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (at === undefined) return;
    const left = at + forMs - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), left + 1);
    return () => clearTimeout(timer);
  }, [at, forMs]);
  return at !== undefined && Date.now() < at + forMs;
}
