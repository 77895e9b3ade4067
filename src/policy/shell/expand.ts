/**
 * What a simple command runs besides itself: the command a wrapper runs (wrappers.ts), the code a
 * shell, `eval`, `trap` or `alias` is given (parsed and walked again by walk.ts), `find -exec`.
 */
import { SHELLS, joined, shellInvocation, type Inner } from './options.js';
import { analyzeInto, type Walk } from './walk.js';
import { hiddenRuns } from './hidden-runs.js';
import { WRAPPERS, findCommands, withPlaceholder } from './wrappers.js';
import { literalOf, programName, textWord, unknownWord, type SimpleCommand } from './words.js';

/** Records `command`, then what it runs when its program is a wrapper or a shell. */
export function expand(command: SimpleCommand, w: Walk): void {
  w.out.push(command);
  const program = command.argv[0];
  const name = program ? programName(program) : undefined;
  const hidden = hiddenRuns(command, name);
  if (hidden.writes) command.writesFiles = true;
  for (const run of hidden.runs) addInner(command, run.inner, run.label, w);
  if (!program) return;
  if (name === undefined) {
    const why = `the program is not known before the command runs (${program.source})`;
    command.unresolved = why;
    w.problems.push(why);
    return;
  }
  let inner: Inner | undefined;
  const label = name;
  const wrapper = WRAPPERS.get(name);
  if (wrapper) {
    inner = wrapper.inner(command.argv);
    command.wrapper = { name, transparent: wrapper.transparent, runs: false };
  } else if (SHELLS.has(name)) {
    inner = shellInvocation(command.argv);
    command.wrapper = { name, transparent: false, runs: false };
  } else if (name === 'eval') {
    const args = command.argv.slice(1).filter((word, i) => i > 0 || literalOf(word) !== '--');
    inner = args.length > 0 ? joined(args, 'eval') : { kind: 'none' };
    command.wrapper = { name, transparent: false, runs: false };
  } else if (name === 'trap') {
    const args = command.argv.slice(1);
    const first = args[0] ? literalOf(args[0]) : undefined;
    const actionAt = first === '--' ? 1 : 0;
    if (first !== undefined && first.startsWith('-') && first !== '--' && first !== '-') inner = { kind: 'none' }; // -p, -l
    else if (args.length - actionAt >= 2) {
      const action = args[actionAt]!;
      const text = literalOf(action);
      inner = text === '' || text === '-' ? { kind: 'none' } : text === undefined ? { kind: 'unknown', why: 'trap is given shell code that is not known before it runs' } : { kind: 'shell', code: action, label: 'trap' };
    }
    command.wrapper = { name, transparent: false, runs: false };
  } else if (name === 'alias') {
    command.wrapper = { name, transparent: false, runs: false };
    for (const word of command.argv.slice(1)) {
      const text = literalOf(word);
      if (text === undefined) {
        addInner(command, { kind: 'unknown', why: 'an alias is given a value that is not known before it runs' }, 'alias', w);
        continue;
      }
      const eq = text.indexOf('=');
      if (eq > 0) addInner(command, { kind: 'shell', code: textWord(text.slice(eq + 1), word.source), label: 'alias' }, 'alias', w);
    }
    return;
  } else if (name === 'find') {
    for (const found of findCommands(command.argv)) addInner(command, { kind: 'argv', argv: found, placeholder: '{}' }, 'find -exec', w);
    return;
  }
  if (inner) addInner(command, inner, label, w);
}

function addInner(outer: SimpleCommand, inner: Inner, label: string, w: Walk): void {
  const via = [...outer.via, label];
  if (inner.kind !== 'none' && outer.wrapper) outer.wrapper.runs = true;
  switch (inner.kind) {
    case 'none':
      return;
    case 'unknown': {
      const why = inner.why;
      w.problems.push(why);
      w.out.push({ assignments: [], argv: [unknownWord('…')], writesFiles: outer.writesFiles, via, openArgs: false, unresolved: why });
      return;
    }
    case 'candidates':
      for (const argv of inner.lists) expand({ assignments: [], argv, writesFiles: outer.writesFiles, via, openArgs: outer.openArgs }, { ...w, via });
      return;
    case 'argv': {
      const argv = inner.placeholder ? withPlaceholder(inner.argv, inner.placeholder) : inner.argv;
      expand({ assignments: [], argv, writesFiles: outer.writesFiles, via, openArgs: outer.openArgs || inner.open === true }, { ...w, via });
      return;
    }
    case 'shell': {
      let text = literalOf(inner.code);
      if (text === undefined) {
        const why = `${inner.label ?? label} is given shell code that is not known before it runs`;
        w.problems.push(why);
        w.out.push({ assignments: [], argv: [unknownWord(inner.code.source)], writesFiles: outer.writesFiles, via, openArgs: false, unresolved: why });
        return;
      }
      if (inner.placeholders) text = text.replace(inner.placeholders, '"$SEEK_UNKNOWN_ARGUMENT"');
      const first = w.out.length;
      analyzeInto(text, { ...w, via: [...outer.via], writes: outer.writesFiles }, inner.label ?? label);
      if (inner.open || outer.openArgs) for (const added of w.out.slice(first)) added.openArgs = true;
      return;
    }
  }
}

