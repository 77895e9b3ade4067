import { Text } from 'ink';
import { linesToString } from '../markdown/ansi.js';
import { welcomeLines, type WelcomeInfo } from '../state/welcome.js';

/** The first screen's header (see state/welcome.ts); printed once, with the conversation. */
export function Welcome({ info, width, color }: { info: WelcomeInfo; width: number; color: boolean }) {
  return <Text>{linesToString(welcomeLines(info, width), color)}</Text>;
}
