/**
 * The image on the system clipboard, through the platform's own tool: `wl-paste` (Wayland) or
 * `xclip` (X11) on Linux, `pngpaste` or `osascript` on macOS, PowerShell on Windows. The tools are
 * found on PATH (no shell); when none is there the error says what to install.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The clipboard holds no image, or no tool could read it; the message says which and what to do. */
export class ClipboardError extends Error {
  override readonly name = 'ClipboardError';
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const TIMEOUT_MS = 5_000;
const MAX_BYTES = 64 * 1024 * 1024;

/** The full path of `name` on PATH, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function run(file: string, args: string[], encoding: 'buffer' | 'utf8'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'buffer', timeout: TIMEOUT_MS, maxBuffer: MAX_BYTES, windowsHide: true }, (error, stdout) => {
      if (error) reject(error);
      else resolve(encoding === 'buffer' ? stdout : Buffer.from(stdout.toString('utf8')));
    });
  });
}

/** Picks the image type a list of offered types holds (one a line), PNG first. */
function imageTypeOf(offered: string): string | undefined {
  const types = offered.split(/\r?\n/).map((line) => line.trim());
  return IMAGE_TYPES.find((type) => types.includes(type));
}

function noImage(offered: string): ClipboardError {
  const types = offered.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).slice(0, 4);
  return new ClipboardError(`The clipboard holds no image${types.length > 0 ? ` (it has ${types.join(', ')})` : ''}.`);
}

async function linux(env: NodeJS.ProcessEnv): Promise<Buffer> {
  const wlPaste = onPath('wl-paste', env);
  const xclip = onPath('xclip', env);
  // Under Wayland wl-paste reads the real clipboard; xclip would see only XWayland's.
  if (wlPaste && (env.WAYLAND_DISPLAY || !xclip)) {
    const offered = (await run(wlPaste, ['--list-types'], 'utf8')).toString();
    const type = imageTypeOf(offered);
    if (!type) throw noImage(offered);
    return run(wlPaste, ['--no-newline', '--type', type], 'buffer');
  }
  if (xclip) {
    const offered = (await run(xclip, ['-selection', 'clipboard', '-t', 'TARGETS', '-o'], 'utf8').catch(() => Buffer.from(''))).toString();
    const type = imageTypeOf(offered);
    if (!type) throw noImage(offered);
    return run(xclip, ['-selection', 'clipboard', '-t', type, '-o'], 'buffer');
  }
  throw new ClipboardError('Pasting an image needs wl-clipboard (Wayland: wl-paste) or xclip (X11); install one, e.g. apt install wl-clipboard xclip. You can also attach a file: type @path/to/image.png.');
}

async function macos(env: NodeJS.ProcessEnv): Promise<Buffer> {
  const pngpaste = onPath('pngpaste', env);
  if (pngpaste) return run(pngpaste, ['-'], 'buffer');
  // osascript prints the PNG as "<<data PNGf89504E47...>>" in guillemets (written as escapes: the
  // bundle stays ASCII, which V8's code cache needs to start fast).
  const text = (await run('/usr/bin/osascript', ['-e', 'the clipboard as \u00abclass PNGf\u00bb'], 'utf8').catch(() => Buffer.from(''))).toString();
  const hex = /\u00abdata PNGf([0-9A-Fa-f]+)\u00bb/.exec(text)?.[1];
  if (!hex) throw new ClipboardError('The clipboard holds no image (or install pngpaste: brew install pngpaste).');
  return Buffer.from(hex, 'hex');
}

const POWERSHELL_SCRIPT =
  'Add-Type -AssemblyName System.Windows.Forms; Add-Type -AssemblyName System.Drawing; $i = [Windows.Forms.Clipboard]::GetImage(); ' +
  'if ($i) { $m = New-Object IO.MemoryStream; $i.Save($m, [Drawing.Imaging.ImageFormat]::Png); [Convert]::ToBase64String($m.ToArray()) }';

async function windows(env: NodeJS.ProcessEnv): Promise<Buffer> {
  const shell = onPath('powershell.exe', env) ?? onPath('pwsh.exe', env) ?? 'powershell.exe';
  const text = (await run(shell, ['-NoProfile', '-STA', '-Command', POWERSHELL_SCRIPT], 'utf8')).toString().trim();
  if (!text) throw new ClipboardError('The clipboard holds no image.');
  return Buffer.from(text, 'base64');
}

/** The clipboard's image bytes. Throws ClipboardError saying what is missing. */
export async function readClipboardImage(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = platform === 'darwin' ? await macos(env) : platform === 'win32' ? await windows(env) : await linux(env);
  } catch (error) {
    if (error instanceof ClipboardError) throw error;
    throw new ClipboardError(`Reading the clipboard failed: ${(error as Error).message.split('\n')[0]}`);
  }
  if (bytes.length === 0) throw new ClipboardError('The clipboard holds no image.');
  return bytes;
}
