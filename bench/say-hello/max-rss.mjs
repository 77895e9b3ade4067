// Preloaded (node --import) into every process the say-hello benchmark runs: writes the process's
// peak resident set size in kilobytes to file descriptor 3 as it exits.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    writeSync(3, `${process.resourceUsage().maxRSS}\n`);
  } catch {
    // fd 3 not open: run outside the benchmark.
  }
});
