import { Text } from 'ink';
import { useEffect, useState } from 'react';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The "working" line while a turn or a command runs: a spinner, elapsed seconds, and a retry
 * notice when the provider is being retried. Ticks four times a second. */
export function Working({ label, retry, color }: { label?: string; retry?: { attempt: number; maxAttempts: number; message: string }; color: boolean }) {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.floor((now - started) / 1000);
  const frame = FRAMES[Math.floor((now - started) / 100) % FRAMES.length];
  return (
    <Text>
      <Text color={color ? 'cyan' : undefined}>{frame}</Text> {label ?? 'working'} <Text dimColor>{seconds}s · esc to cancel</Text>
      {retry ? (
        <Text color={color ? 'yellow' : undefined}>
          {'  '}
          {retry.message} — retrying ({retry.attempt + 1}/{retry.maxAttempts})
        </Text>
      ) : null}
    </Text>
  );
}
