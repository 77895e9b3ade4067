/**
 * Ink redraws at most this many times a second. Ink's default (30) makes every keystroke wait for
 * the next 33 ms slot when keys come faster than that; 60 halves that wait, and a streaming frame
 * renders in about 1 ms (bench/tui.tsx), so the extra frames are cheap.
 */
export const UI_MAX_FPS = 60;
