import { Box, Text } from 'ink';
import { useLatestInput } from '../input/use-latest-input.js';
import { useRef, useState } from 'react';
import { editLine } from '../input/typed-line.js';

export interface SetupResult {
  provider: 'deepseek' | 'anthropic' | 'openai' | 'openai-compatible';
  apiKey: string;
  baseUrl?: string;
}

const PROVIDERS: Array<{ id: SetupResult['provider']; label: string; variable: string }> = [
  { id: 'deepseek', label: 'DeepSeek', variable: 'DEEPSEEK_API_KEY' },
  { id: 'anthropic', label: 'Anthropic', variable: 'ANTHROPIC_API_KEY' },
  { id: 'openai', label: 'OpenAI', variable: 'OPENAI_API_KEY' },
  { id: 'openai-compatible', label: 'Local or other OpenAI-compatible server', variable: 'OPENAI_BASE_URL' },
];

/**
 * First run: no key anywhere. Asks for a provider and a key (or a base URL for a local server)
 * to save in ~/.seek/config.json (mode 0600). Esc skips; environment variables always win later.
 */
export function Setup({ configPath, onDone }: { configPath: string; onDone: (result: SetupResult | undefined) => void }) {
  const [step, setStep] = useState<'provider' | 'secret'>('provider');
  const [selected, setSelected] = useState(0);
  const [text, setText] = useState('');
  const textNow = useRef('');
  const provider = PROVIDERS[selected]!;
  const asksUrl = provider.id === 'openai-compatible';

  useLatestInput((input, key) => {
    if (key.escape) return onDone(undefined);
    if (step === 'provider') {
      if (key.upArrow) setSelected((index) => (index + PROVIDERS.length - 1) % PROVIDERS.length);
      if (key.downArrow) setSelected((index) => (index + 1) % PROVIDERS.length);
      if (key.return) setStep('secret');
      return;
    }
    // The text as the last read left it (a read may come before the frame of the one before);
    // a pasted key and its Enter can arrive in one read: the key, then the Enter.
    const edit = editLine(textNow.current, input, key);
    textNow.current = edit.text;
    setText(edit.text);
    const value = edit.text.trim();
    if (!edit.submit || !value) return;
    return onDone(asksUrl ? { provider: provider.id, apiKey: '', baseUrl: value } : { provider: provider.id, apiKey: value });
  });

  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Welcome to seek</Text>
      <Text>No API key is configured. Pick a provider (↑/↓, enter), or press esc to skip and set an environment variable instead.</Text>
      {step === 'provider' ? (
        PROVIDERS.map((entry, index) => (
          <Text key={entry.id} bold={index === selected}>
            {index === selected ? '❯ ' : '  '}
            {entry.label} <Text dimColor>({entry.variable})</Text>
          </Text>
        ))
      ) : (
        <Box flexDirection="column">
          <Text>
            {asksUrl ? 'Base URL (e.g. http://localhost:11434/v1): ' : `${provider.label} API key: `}
            {asksUrl ? text : '•'.repeat(Math.min(text.length, 40))}
            <Text inverse> </Text>
          </Text>
          <Text dimColor>Saved to {configPath} (readable only by you). Enter to save, esc to skip.</Text>
        </Box>
      )}
    </Box>
  );
}
