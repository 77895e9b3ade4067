/**
 * The files of one project's memory: `memory.jsonl` (active entries, insertion order) and
 * `archived.jsonl` (entries that left, with when and why). Every change runs as a transaction:
 * take the lock, read the files fresh, apply the change, replace the files atomically (temp file +
 * rename) only when something changed. Loads need no lock and never fail on damage: unreadable
 * lines are skipped and reported, and moved to `<file>.corrupt` by the next write instead of
 * being dropped.
 */
import { appendFile, readFile, stat } from 'node:fs/promises';
import { archivedMemoryFile, ensureProjectManifest, manifestFile, memoryFile, projectDir } from '../config/paths.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import { normaliseArchived, normaliseEntry, serializeEntry, type ArchivedEntry, type MemoryEntry } from './entry.js';
import { parseJsonLines, type SkippedLine } from './jsonl.js';
import { withMemoryLock } from './lock.js';

export interface MemoryStoreOptions {
  seekHome: string;
  projectId: string;
  /** Recorded in `manifest.json` by the first write when the project has none yet (dream finds
   * projects by their manifest). */
  projectRoot?: string;
  /** The clock (tests inject one). */
  now?: () => Date;
  /** How long a write waits for another process's lock. */
  lockWaitMs?: number;
}

export interface LoadedMemory {
  /** Active entries in file order; of two lines with one name the later wins (upsert semantics). */
  entries: MemoryEntry[];
  skipped: SkippedLine[];
}

export interface LoadedArchive {
  /** Oldest first, as appended. A name may appear more than once (archived, restored, archived). */
  entries: ArchivedEntry[];
  skipped: SkippedLine[];
}

/** What a transaction sees and changes. Mutate `entries` in place or replace it, then call
 * `changed()`; archive with `archive()`; take entries out of the archive with `unarchive()`. */
export class MemoryTransaction {
  private activeChanged = false;
  readonly archived: ArchivedEntry[] = [];
  readonly unarchived: Array<(entry: ArchivedEntry) => boolean> = [];

  constructor(
    public entries: MemoryEntry[],
    readonly now: Date,
    private readonly archiveLoader: () => Promise<LoadedArchive>,
  ) {}

  find(name: string): MemoryEntry | undefined {
    return this.entries.find((entry) => entry.name === name);
  }

  changed(): void {
    this.activeChanged = true;
  }

  get hasActiveChanges(): boolean {
    return this.activeChanged;
  }

  /** Moves an active entry to the archive with its reason. False when no such entry is active. */
  archive(name: string, reason: string, extra: Partial<ArchivedEntry> = {}): ArchivedEntry | undefined {
    const index = this.entries.findIndex((entry) => entry.name === name);
    if (index < 0) return undefined;
    const [entry] = this.entries.splice(index, 1);
    const record: ArchivedEntry = { ...entry!, ...extra, archived_at: this.now.toISOString(), archived_reason: reason };
    this.archived.push(record);
    this.changed();
    return record;
  }

  /** Marks archived records for removal when the transaction is written (restore). */
  unarchive(predicate: (entry: ArchivedEntry) => boolean): void {
    this.unarchived.push(predicate);
  }

  /** The archive as it is on disk now (under the lock). */
  loadArchive(): Promise<LoadedArchive> {
    return this.archiveLoader();
  }
}

export class MemoryStore {
  readonly dir: string;
  readonly file: string;
  readonly archiveFile: string;
  readonly now: () => Date;

  constructor(private readonly options: MemoryStoreOptions) {
    this.dir = projectDir(options.seekHome, options.projectId);
    this.file = memoryFile(options.seekHome, options.projectId);
    this.archiveFile = archivedMemoryFile(options.seekHome, options.projectId);
    this.now = options.now ?? (() => new Date());
  }

  get projectId(): string {
    return this.options.projectId;
  }

  get seekHome(): string {
    return this.options.seekHome;
  }

  /** The active entries as on disk now. A missing file is an empty memory. */
  async load(): Promise<LoadedMemory> {
    const parsed = parseJsonLines(await readText(this.file), normaliseEntry);
    const byName = new Map<string, MemoryEntry>();
    for (const { value } of parsed.items) {
      byName.delete(value.name); // the later line wins and takes the later position
      byName.set(value.name, value);
    }
    return { entries: [...byName.values()], skipped: parsed.skipped };
  }

  async loadArchive(): Promise<LoadedArchive> {
    const parsed = parseJsonLines(await readText(this.archiveFile), normaliseArchived);
    return { entries: parsed.items.map((item) => item.value), skipped: parsed.skipped };
  }

  /**
   * Runs `change` under the lock on the files as they are now, then writes what it changed.
   * Returns what `change` returned. Throws MemoryLockError when the lock cannot be had.
   */
  async transact<T>(change: (tx: MemoryTransaction) => T | Promise<T>): Promise<T> {
    return withMemoryLock(
      this.dir,
      async () => {
        const active = await this.load();
        const tx = new MemoryTransaction(active.entries.map((entry) => ({ ...entry })), this.now(), () => this.loadArchive());
        const result = await change(tx);
        const archiveChanged = tx.archived.length > 0 || tx.unarchived.length > 0;
        if (tx.hasActiveChanges || archiveChanged) await this.ensureManifest();
        // Order matters for a crash half-way: an entry leaving the active file is written to the
        // archive first, one coming back (restore) is written to the active file first, so it is
        // never missing from both.
        if (tx.archived.length > 0) await this.rewriteArchive((entries) => [...entries, ...tx.archived]);
        if (tx.hasActiveChanges) {
          await quarantine(this.file, active.skipped);
          await writeFileAtomic(this.file, joinLines(tx.entries));
        }
        if (tx.unarchived.length > 0) {
          await this.rewriteArchive((entries) => entries.filter((entry) => !tx.unarchived.some((matches) => matches(entry))));
        }
        return result;
      },
      this.options.lockWaitMs,
    );
  }

  private async rewriteArchive(change: (entries: ArchivedEntry[]) => ArchivedEntry[]): Promise<void> {
    const archive = await this.loadArchive();
    await quarantine(this.archiveFile, archive.skipped);
    await writeFileAtomic(this.archiveFile, joinLines(change(archive.entries)));
  }

  private async ensureManifest(): Promise<void> {
    const root = this.options.projectRoot;
    if (!root) return;
    const exists = await stat(manifestFile(this.options.seekHome, this.options.projectId)).then(
      () => true,
      () => false,
    );
    if (!exists) await ensureProjectManifest(this.options.seekHome, this.options.projectId, root, this.now());
  }
}

function joinLines(entries: readonly MemoryEntry[]): string {
  return entries.length === 0 ? '' : `${entries.map(serializeEntry).join('\n')}\n`;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return '';
    throw error;
  }
}

/** Saves unreadable lines next to the file before a rewrite drops them from it. */
async function quarantine(file: string, skipped: readonly SkippedLine[]): Promise<void> {
  if (skipped.length === 0) return;
  await appendFile(`${file}.corrupt`, skipped.map((item) => `${item.raw}\n`).join(''), 'utf8');
}
