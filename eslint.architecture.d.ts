// Types of eslint.architecture.js, for the test that applies it to a fixture tree.
import type { Linter } from 'eslint';

export declare const LAYER_ORDER: readonly string[];
export declare const ISOLATED: readonly string[];
export declare function architectureConfig(base?: string): Linter.Config;
