import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { formatRule } from '../../policy/rules.js';
import type { AskAnswer, PermissionPrompt as PermissionRequest } from '../../runtime/tool-gate.js';
import { DiffView } from './conversation/index.js';

const CHOICES: Array<{ answer: AskAnswer; key: string; label: string }> = [
  { answer: 'yes', key: 'y', label: 'Yes' },
  { answer: 'always', key: 'a', label: 'Yes, and always for this session' },
  { answer: 'no', key: 'n', label: 'No (esc)' },
];

/**
 * Asks the user about one action: the diff of a write or edit, the command and working directory
 * of a bash call, which agent asks, and what "always" would allow from now on. y / a / n answer
 * at once; arrows and Enter choose; Esc says no.
 */
export function PermissionPrompt({
  request,
  onAnswer,
  width,
  color,
}: {
  request: PermissionRequest;
  onAnswer: (answer: AskAnswer) => void;
  width: number;
  color: boolean;
}) {
  const [selected, setSelected] = useState(0);
  useInput((input, key) => {
    // Only a plain letter answers: Ctrl+A (line start) or Alt+Y typed out of habit must not.
    const byKey = key.ctrl || key.meta ? undefined : CHOICES.find((choice) => choice.key === input.toLowerCase());
    if (byKey) return onAnswer(byKey.answer);
    if (key.escape) return onAnswer('no');
    if (key.upArrow) setSelected((index) => (index + CHOICES.length - 1) % CHOICES.length);
    if (key.downArrow || key.tab) setSelected((index) => (index + 1) % CHOICES.length);
    if (key.return) onAnswer(CHOICES[selected]!.answer);
  });

  const { action } = request;
  const accent = color ? 'yellow' : undefined;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={accent} paddingX={1} width={width}>
      {request.subagent ? (
        <Text color={color ? 'blue' : undefined}>
          [subagent: {request.subagent.description}] asks:
        </Text>
      ) : null}
      <Text bold>Allow {action.summary}?</Text>
      <Text dimColor>{request.reason}</Text>
      {action.kind === 'bash' && action.command ? (
        <Box flexDirection="column" marginY={1}>
          <Text color={color ? 'cyan' : undefined}>$ {action.command}</Text>
          <Text dimColor>in {request.cwd}</Text>
        </Box>
      ) : null}
      {action.preview?.kind === 'diff' ? (
        <Box marginY={1}>
          <DiffView diff={action.preview.diff} maxLines={40} color={color} />
        </Box>
      ) : null}
      {CHOICES.map((choice, index) => (
        <Text key={choice.answer} {...(index === selected ? { bold: true, ...(color ? { color: 'cyan' } : {}) } : {})}>
          {index === selected ? '❯ ' : '  '}
          {choice.key}) {choice.label}
          {choice.answer === 'always' ? <Text dimColor> — adds {formatRule(request.alwaysRule)}</Text> : null}
        </Text>
      ))}
    </Box>
  );
}
