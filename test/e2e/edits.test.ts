import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedServer } from '../support/scripted-server/index.js';
import { makeProject, runSeek } from '../support/seek-process.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function env(home: string) {
  return { SEEK_HOME: home, DEEPSEEK_API_KEY: 'test-key', DEEPSEEK_BASE_URL: server.url, SEEK_RETRY_BASE_MS: '1' };
}

/** The content of the tool result the model received in request `n`. */
function toolResult(n: number): string {
  return server.requests[n]!.body.messages.at(-1).content as string;
}

const source = 'export class Queue {\n\tpush(item) {\n\t\tthis.items.push(item);\n\t}\n\n\tpop() {\n\t\treturn this.items.pop();\n\t}\n}\n';

describe('edit_file through the real seek', () => {
  it('applies what models send (spaces for tabs, Claude Code argument names, a boolean as a string) and tells the model what it tolerated', async () => {
    const { root, home } = makeProject({ 'queue.js': source });
    server.enqueue(
      // Spaces where the file has tabs, one level shallower than the file.
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'queue.js', old_string: 'pop() {\n    return this.items.pop();\n}', new_string: 'pop() {\n    const item = this.items.pop();\n    return item;\n}' } }] },
      // Claude Code's name for the path, and a boolean sent as a string.
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'queue.js', old_string: 'this.items.push(item);', new_string: 'this.items.push(item);\n\t\treturn this;', replace_all: 'false' } }] },
      { text: 'done' },
    );
    const run = await runSeek(['-p', 'change pop', '--yolo'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, 'queue.js'), 'utf8')).toBe(
      'export class Queue {\n\tpush(item) {\n\t\tthis.items.push(item);\n\t\treturn this;\n\t}\n\n\tpop() {\n\t\tconst item = this.items.pop();\n\t\treturn item;\n\t}\n}\n',
    );
    expect(toolResult(1)).toContain('Edited queue.js: replaced 1 occurrence');
    expect(toolResult(1)).toContain('the file indents with tabs, not spaces; new_string was re-indented to match');
    expect(toolResult(2)).toContain('read `file_path` as `path`');
    expect(toolResult(2)).toContain('read replace_all: "false" as false');
    expect(server.violations).toEqual([]);
  });

  it('refuses an ambiguous edit and a placeholder edit, leaving the file as it was, and names the closest line on a miss', async () => {
    const { root, home } = makeProject({ 'queue.js': source });
    server.enqueue(
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'queue.js', old_string: '\t}\n', new_string: '\t} // end\n' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'queue.js', old_string: '\tpush(item) {\n\t\tthis.items.push(item);\n\t}', new_string: '\t// ... existing code ...' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'queue.js', old_string: 'return this.item.pop();', new_string: 'x' } }] },
      { text: 'gave up' },
    );
    const run = await runSeek(['-p', 'edit', '--yolo'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, 'queue.js'), 'utf8')).toBe(source);
    expect(toolResult(1)).toContain('old_string matches 2 places in queue.js (lines 4, 8)');
    expect(toolResult(2)).toContain('placeholder "// ... existing code ..."');
    expect(toolResult(3)).toContain('The closest match is line 7; line 7 differs at column 19: the file has \'s\' (U+0073) where old_string has \'.\' (U+002E)');
    expect(server.violations).toEqual([]);
  });
});
