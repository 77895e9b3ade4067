// Preloaded (node --require) into every process the say-hello benchmark runs: writes the process's
// peak resident set size in kilobytes to file descriptor 3 as it exits. CommonJS on purpose: a
// preload given with --import makes Node start its ES module loader and run even a CommonJS
// program through it, which the measured program would not do on its own (about 3-5 ms).
'use strict';
const { writeSync } = require('node:fs');

process.on('exit', () => {
  try {
    writeSync(3, `${process.resourceUsage().maxRSS}\n`);
  } catch {
    // fd 3 not open: run outside the benchmark.
  }
});
