import { Command } from 'commander';
import { readConfig } from '../../config/config.js';
import { resolveProject, seekHome } from '../../config/paths.js';
import { ageDays, decayScore } from '../../memory/decay.js';
import { EntryInputError, type ArchivedEntry, type MemoryEntry } from '../../memory/entry.js';
import { entryToText, textToEntry } from '../../memory/entry-text.js';
import { describeSkipped } from '../../memory/jsonl.js';
import { archiveEntry, recallEntry, rememberEntry, replaceEntry, restoreEntry, setPinned } from '../../memory/operations.js';
import { searchEntries } from '../../memory/search.js';
import { memorySettings } from '../../memory/settings.js';
import { MemoryStore } from '../../memory/store.js';
import { formatAge } from '../../util/age.js';
import { guardedBy, processIO, type CommandIO } from '../command-io.js';
import { editText } from '../editor.js';

export type MemoryCommandIO = CommandIO & {
  edit?: typeof editText;
  /** Whether an editor could run here: stdin and stdout are a terminal (default: the process's). */
  terminal?: () => boolean;
};

/** A row of `list`: an active entry with its decay figures, or an archived one. */
interface Row {
  entry: MemoryEntry;
  status: 'active' | 'stale' | 'archived';
  score?: number;
}

/**
 * `seek memory list [--all] [--json] | show NAME | search QUERY | archive NAME [--reason TEXT] |
 * restore NAME | pin NAME | unpin NAME | edit NAME | add NAME` on the project memory of the working
 * directory.
 * Exit 0 on success, 1 when the entry is not there or the edit is invalid, 2 on bad usage.
 */
export function createMemoryCommand(io: MemoryCommandIO = processIO): Command {
  const open = async () => {
    const home = seekHome(io.env);
    const { root, pid } = resolveProject(io.cwd(), home);
    const { settings } = memorySettings(await readConfig(home).catch(() => ({})), io.env);
    return { store: new MemoryStore({ seekHome: home, projectId: pid, projectRoot: root }), halfLife: settings.halfLifeDays };
  };
  const fail = (message: string): void => {
    io.err(`seek: ${message}\n`);
    io.setExitCode(1);
  };
  const warnSkipped = (file: string, skipped: Parameters<typeof describeSkipped>[1]): void => {
    const text = describeSkipped(file, skipped);
    if (text) io.err(`seek: ${text}\n`);
  };
  const guarded = guardedBy(io);

  const command = new Command('memory')
    .description("this project's memory: decisions the agent recalls across sessions")
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  command
    .command('list')
    .alias('ls')
    .description('entries with score, recall count, age and flags (stale ones and the archive with --all)')
    .option('--all', 'also stale entries and the archive')
    .option('--json', 'print the rows as JSON')
    .action(
      guarded(async (opts: { all?: boolean; json?: boolean }) => {
        const { store, halfLife } = await open();
        const now = store.now();
        const loaded = await store.load();
        warnSkipped(store.file, loaded.skipped);
        let rows: Row[] = loaded.entries.map((entry) => ({ entry, status: entry.stale ? 'stale' : 'active', score: decayScore(entry, now, halfLife) }));
        if (opts.all) {
          const archive = await store.loadArchive();
          warnSkipped(store.archiveFile, archive.skipped);
          rows.push(...archive.entries.map((entry): Row => ({ entry, status: 'archived' })));
        } else {
          rows = rows.filter((row) => row.status === 'active');
        }
        if (opts.json) return io.out(`${JSON.stringify(rows.map((row) => rowJson(row, now)), null, 2)}\n`);
        if (rows.length === 0) return io.out(opts.all ? 'no memory entries in this project\n' : 'no active memory entries in this project (seek memory list --all shows stale and archived ones)\n');
        io.out(`${table(rows, now)}\n`);
      }),
    );

  command
    .command('show')
    .alias('get')
    .description('one entry in full (an archived one with why it left)')
    .argument('<name>')
    .action(
      guarded(async (name: string) => {
        const { store, halfLife } = await open();
        const found = await recallEntry(store, name, { bump: false });
        if (found.kind === 'missing') return fail(`no memory entry named "${found.name}" (seek memory list --all)`);
        const entry = found.entry;
        const head = [`${entry.name} — ${entry.tagline}`];
        if (found.kind === 'archived') {
          const archived = found.entry;
          head.push(`archived ${archived.archived_at.slice(0, 10)}: ${archived.archived_reason}`);
          if (found.successor) head.push(`superseded by: ${found.successor.name} — ${found.successor.tagline}`);
        } else {
          head.push(`score ${decayScore(entry, store.now(), halfLife).toFixed(2)} · recalled ${entry.recall_count}× · created ${entry.created_at.slice(0, 10)} · updated ${entry.updated_at.slice(0, 10)}${flags(entry).length ? ` · ${flags(entry).join(', ')}` : ''}`);
        }
        if (entry.tags?.length) head.push(`tags: ${entry.tags.join(', ')}`);
        if (entry.supersedes) head.push(`supersedes: ${entry.supersedes}`);
        io.out(`${head.join('\n')}\n\n${entry.content}\n`);
      }),
    );

  command
    .command('search')
    .alias('find')
    .description('entries whose name, tagline, tags or content contain QUERY (stale and archived ones too)')
    .argument('<query...>')
    .option('--json', 'print the matches as JSON')
    .action(
      guarded(async (words: string[], opts: { json?: boolean }) => {
        const { store, halfLife } = await open();
        const query = words.join(' ');
        const now = store.now();
        const active = searchEntries((await store.load()).entries, query).map((hit): Row => ({ entry: hit.entry, status: hit.entry.stale ? 'stale' : 'active', score: decayScore(hit.entry, now, halfLife) }));
        const archived = searchEntries((await store.loadArchive()).entries, query).map((hit): Row => ({ entry: hit.entry, status: 'archived' }));
        const rows = [...active, ...archived];
        if (opts.json) return io.out(`${JSON.stringify(rows.map((row) => rowJson(row, now)), null, 2)}\n`);
        io.out(rows.length === 0 ? `no memory entries match "${query}"\n` : `${table(rows, now)}\n`);
      }),
    );

  command
    .command('archive')
    .alias('forget')
    .description('move an entry to the archive, with the reason (restore brings it back)')
    .argument('<name>')
    .option('--reason <text>', 'why it no longer applies', 'manual archive')
    .action(
      guarded(async (name: string, opts: { reason: string }) => {
        const { store } = await open();
        const archived = await archiveEntry(store, name, opts.reason);
        if (!archived) return fail(`no active memory entry named "${name}"`);
        io.out(`archived "${archived.name}" (reason: ${archived.archived_reason})\n`);
      }),
    );

  command
    .command('restore')
    .description('bring an archived entry back (fresh: not stale)')
    .argument('<name>')
    .action(
      guarded(async (name: string) => {
        const { store } = await open();
        const outcome = await restoreEntry(store, name);
        if (outcome.kind === 'missing') return fail(`no archived memory entry named "${name}"`);
        if (outcome.kind === 'active') return fail(`"${name}" is already active`);
        io.out(`restored "${outcome.entry.name}"\n`);
      }),
    );

  for (const [verb, pinned] of [['pin', true], ['unpin', false]] as const) {
    command
      .command(verb)
      .description(pinned ? 'keep an entry from ever decaying (and list it first)' : 'let an entry decay again')
      .argument('<name>')
      .action(
        guarded(async (name: string) => {
          const { store } = await open();
          const entry = await setPinned(store, name, pinned);
          if (!entry) return fail(`no active memory entry named "${name}"`);
          io.out(`${pinned ? 'pinned' : 'unpinned'} "${entry.name}"\n`);
        }),
      );
  }

  command
    .command('add')
    .description('record a decision by hand: with --tagline and --content at once, otherwise in $EDITOR (in a terminal)')
    .argument('<name>', 'kebab-case name, e.g. use-pnpm-workspaces')
    .option('--tagline <text>', 'one specific sentence (what the index shows)')
    .option('--content <text>', 'what was decided, why, and what was rejected')
    .option('--tags <list>', 'comma-separated, e.g. tooling,ci')
    .option('--supersedes <name>', 'an entry this one replaces (it is archived, pointing here)')
    .action(
      guarded(async (name: string, opts: { tagline?: string; content?: string; tags?: string; supersedes?: string }) => {
        // Without a terminal an editor cannot be used (vi would hang a script or garble its pipe).
        if (!(opts.tagline && opts.content) && !(io.terminal ?? processHasTerminal)()) {
          const missing = [opts.tagline ? '' : '--tagline', opts.content ? '' : '--content'].filter(Boolean).join(' and ');
          io.err(`seek: no terminal to run an editor in; give the entry with flags instead (${missing} missing): seek memory add ${name} --tagline TEXT --content TEXT [--tags a,b]\n`);
          return io.setExitCode(2);
        }
        const { store } = await open();
        const tags = opts.tags?.split(',').map((tag) => tag.trim()).filter(Boolean);
        const given = { name, tagline: opts.tagline ?? '', content: opts.content ?? '', ...(tags && tags.length > 0 ? { tags } : {}) };
        const draft = opts.tagline && opts.content ? undefined : (io.edit ?? editText)(entryToText(given), `${name.replace(/[^A-Za-z0-9._-]/g, '-')}.md`, io.env);
        try {
          const input = draft ? textToEntry(draft.text) : given;
          const { entry, superseded } = await rememberEntry(store, { ...input, ...(opts.supersedes ? { supersedes: opts.supersedes } : {}) }, { onlyNew: true });
          draft?.discard();
          io.out(`remembered "${entry.name}"${superseded ? ` (superseding "${superseded}", now archived)` : ''}\n`);
        } catch (error) {
          if (!(error instanceof EntryInputError)) throw error;
          fail(`${error.message}; nothing was saved${draft ? `, your text is in ${draft.file}` : ''}`);
        }
      }),
    );

  command
    .command('edit')
    .description('edit an entry in $EDITOR (name, tagline, tags, pinned, content)')
    .argument('<name>')
    .action(
      guarded(async (name: string) => {
        const { store } = await open();
        const found = await recallEntry(store, name, { bump: false });
        if (found.kind !== 'active') return fail(`no active memory entry named "${name}"`);
        const before = entryToText({ ...found.entry, ...(found.entry.pinned ? { pinned: true } : {}) });
        const edited = (io.edit ?? editText)(before, `${found.entry.name}.md`, io.env);
        if (edited.text === before) {
          edited.discard();
          return io.out('no changes\n');
        }
        try {
          const entry = await replaceEntry(store, found.entry.name, textToEntry(edited.text));
          if (!entry) throw new EntryInputError(`"${found.entry.name}" is no longer active`);
          edited.discard();
          io.out(`saved "${entry.name}"\n`);
        } catch (error) {
          if (!(error instanceof EntryInputError)) throw error;
          fail(`${error.message}; nothing was saved, your edit is in ${edited.file}`);
        }
      }),
    );
  return command;
}

function processHasTerminal(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

function flags(entry: MemoryEntry): string[] {
  return [entry.pinned ? 'pinned' : '', entry.stale ? 'stale' : '', entry.auto_sourced ? 'unconfirmed' : ''].filter(Boolean);
}

function rowJson(row: Row, now: Date): Record<string, unknown> {
  const { entry } = row;
  const base: Record<string, unknown> = {
    name: entry.name,
    tagline: entry.tagline,
    tags: entry.tags ?? [],
    status: row.status,
    recall_count: entry.recall_count,
    age_days: Math.floor(ageDays(entry, now)),
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    last_recalled_at: entry.last_recalled_at,
    pinned: entry.pinned === true,
    stale: entry.stale === true,
    auto_sourced: entry.auto_sourced === true,
  };
  if (row.score !== undefined) base.score = Number(row.score.toFixed(4));
  if (row.status === 'archived') {
    base.archived_at = (entry as ArchivedEntry).archived_at;
    base.archived_reason = (entry as ArchivedEntry).archived_reason;
  }
  return base;
}

/** NAME SCORE RECALLS AGE FLAGS TAGLINE; the tagline last, never padded. */
function table(rows: readonly Row[], now: Date): string {
  const cells = [['NAME', 'SCORE', 'RECALLS', 'AGE', 'FLAGS', 'TAGLINE']];
  for (const row of rows) {
    const rowFlags = row.status === 'archived' ? ['archived'] : flags(row.entry);
    cells.push([row.entry.name, row.score === undefined ? '-' : row.score.toFixed(2), String(row.entry.recall_count), formatAge(row.entry.created_at, now), rowFlags.join(',') || '-', row.entry.tagline]);
  }
  const widths = cells[0]!.map((_, col) => Math.max(...cells.map((cell) => cell[col]!.length)));
  return cells.map((cell) => cell.map((text, col) => (col === cell.length - 1 ? text : text.padEnd(widths[col]!))).join('  ')).join('\n');
}
