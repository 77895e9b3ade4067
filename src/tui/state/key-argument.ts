/** The argument that says what a tool call is about, on one line: a path, a command, a pattern. */
export function keyArgument(tool: string, args: unknown): string {
  const record = parseArgs(args);
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = record[key];
      if (typeof value === 'string' && value) return value;
    }
    return '';
  };
  let text: string;
  switch (tool) {
    case 'bash':
      text = pick('command');
      break;
    case 'grep':
    case 'glob':
      text = [pick('pattern'), pick('path')].filter(Boolean).join(' in ');
      break;
    case 'git':
      text = [pick('subcommand'), ...(Array.isArray(record.args) ? record.args.map(String) : [])].join(' ');
      break;
    case 'agent':
      text = pick('description');
      break;
    default:
      text = pick('path', 'name', 'query', 'description', 'pattern');
  }
  return oneLine(text || (typeof args === 'string' ? args : ''));
}

function parseArgs(args: unknown): Record<string, unknown> {
  if (typeof args === 'string') {
    try {
      const parsed: unknown = JSON.parse(args);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
}

function oneLine(text: string): string {
  const line = text.trim().replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
