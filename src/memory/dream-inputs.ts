/**
 * What a dream reads (seek-spec 5.5), read-only: every project with a manifest (its non-stale
 * entries, content cut to 400 characters) and the newest sessions across projects (their last
 * messages, cut to 300 characters, memory's own context messages left out so the profile never
 * feeds on itself). Each project and session gets a source label the model must cite.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { manifestFile, sessionsDir } from '../config/paths.js';
import { readSession } from '../session/reader.js';
import { isSessionId } from '../session/format.js';
import { isInjectedContext } from '../session/context.js';
import { MemoryStore } from './store.js';
import { oneLine } from './observer.js';

export const DREAM_SESSIONS = 30;
export const DREAM_MESSAGES_PER_SESSION = 10;
const ENTRY_CONTENT_CHARS = 400;
const MESSAGE_CHARS = 300;

export interface DreamProject {
  label: string;
  projectId: string;
  path: string;
  entries: Array<{ name: string; tagline: string; content: string }>;
}

export interface DreamSession {
  label: string;
  project: string;
  messages: Array<{ role: 'user' | 'assistant'; text: string }>;
}

export interface DreamInputs {
  projects: DreamProject[];
  sessions: DreamSession[];
  /** Every label the model may cite, lowercased. */
  labels: Set<string>;
}

export async function gatherDreamInputs(home: string): Promise<DreamInputs> {
  const ids = (await readdir(join(home, 'projects')).catch(() => [] as string[])).sort();
  const projects: DreamProject[] = [];
  const usedLabels = new Set<string>();
  const projectLabel = new Map<string, string>();
  for (const pid of ids) {
    const manifest = await readManifest(home, pid);
    const name = manifest ? basename(manifest.abs_path) || pid : pid;
    let label = `project:${name.toLowerCase().replace(/\s+/g, '-')}`;
    if (usedLabels.has(label)) label = `${label}-${pid.slice(0, 4)}`;
    usedLabels.add(label);
    projectLabel.set(pid, label);
    if (!manifest) continue;
    const loaded = await new MemoryStore({ seekHome: home, projectId: pid }).load().catch(() => ({ entries: [] }));
    const entries = loaded.entries
      .filter((entry) => !entry.stale)
      .map((entry) => ({ name: entry.name, tagline: entry.tagline, content: oneLine(entry.content, ENTRY_CONTENT_CHARS) }));
    projects.push({ label, projectId: pid, path: manifest.abs_path, entries });
  }

  const files: Array<{ pid: string; path: string; id: string; mtime: number }> = [];
  for (const pid of ids) {
    const dir = sessionsDir(home, pid);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const id = name.slice(0, -'.jsonl'.length);
      if (!name.endsWith('.jsonl') || !isSessionId(id)) continue;
      const mtime = await stat(join(dir, name)).then((s) => s.mtimeMs, () => 0);
      files.push({ pid, path: join(dir, name), id, mtime });
    }
  }
  files.sort((a, b) => b.mtime - a.mtime || (a.id < b.id ? 1 : -1));
  const sessions: DreamSession[] = [];
  for (const file of files.slice(0, DREAM_SESSIONS)) {
    const loaded = await readSession(file.path).catch(() => undefined);
    if (!loaded) continue;
    const messages = loaded.messages
      .filter((message) => (message.role === 'user' && !isInjectedContext(message)) || message.role === 'assistant')
      .map((message) => ({ role: message.role as 'user' | 'assistant', text: oneLine(stripReminders(message.content), MESSAGE_CHARS) }))
      .filter((message) => message.text !== '')
      .slice(-DREAM_MESSAGES_PER_SESSION);
    if (messages.length === 0) continue;
    sessions.push({ label: `session:${file.id}`, project: projectLabel.get(file.pid) ?? file.pid, messages });
  }
  const labels = new Set([...projects.map((p) => p.label), ...sessions.map((s) => s.label)].map((label) => label.toLowerCase()));
  return { projects, sessions, labels };
}

async function readManifest(home: string, pid: string): Promise<{ abs_path: string } | undefined> {
  try {
    const value = JSON.parse(await readFile(manifestFile(home, pid), 'utf8')) as unknown;
    if (typeof value === 'object' && value !== null && typeof (value as { abs_path?: unknown }).abs_path === 'string') {
      return { abs_path: (value as { abs_path: string }).abs_path };
    }
  } catch {
    // No manifest, or a damaged one: the project's sessions still count, its memory does not.
  }
  return undefined;
}

function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').replace(/^<summary>[\s\S]*<\/summary>$/, '').trim();
}
