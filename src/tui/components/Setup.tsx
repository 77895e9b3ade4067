import { Box, Text } from 'ink';
import { useLineInput } from '../input/use-line-input.js';
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
  const [, redraw] = useState(0);
  // The step, the provider, the text and whether setup is done as the last key left them: the
  // keys of one read (Enter, a key, Enter) all reach this render's handler, before any new frame.
  const now = useRef({ step: 'provider' as 'provider' | 'secret', selected: 0, text: '', done: false });
  const { step, selected, text } = now.current;
  const provider = PROVIDERS[selected]!;
  const asksUrl = provider.id === 'openai-compatible';
  const finish = (result: SetupResult | undefined): void => {
    now.current.done = true;
    onDone(result);
  };

  useLineInput((input, key) => {
    const state = now.current;
    if (state.done) return;
    if (key.escape) return finish(undefined);
    if (state.step === 'provider') {
      if (key.upArrow) state.selected = (state.selected + PROVIDERS.length - 1) % PROVIDERS.length;
      if (key.downArrow) state.selected = (state.selected + 1) % PROVIDERS.length;
      if (key.return) state.step = 'secret';
      return redraw((version) => version + 1);
    }
    const edit = editLine(state.text, input, key);
    state.text = edit.text;
    redraw((version) => version + 1);
    const value = edit.text.trim();
    if (!edit.submit || !value) return;
    const chosen = PROVIDERS[state.selected]!.id;
    return finish(chosen === 'openai-compatible' ? { provider: chosen, apiKey: '', baseUrl: value } : { provider: chosen, apiKey: value });
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
