/**
 * The small TypeScript project the screenshots are taken in (scripts/screenshots.ts), and the edit
 * its approval scene proposes.
 */

/** src/format.ts's function as committed… */
export const FORMAT_BEFORE = `export function formatTotal(cents: number): string {
  const dollars = cents / 100;
  return \`$\${dollars.toFixed(2)}\`;
}`;

/** …and as the scripted model wants it. */
export const FORMAT_AFTER = `export function formatTotal(cents: number, currency = 'USD'): string {
  const amount = cents / 100;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
}`;

export const DEMO_FILES: Record<string, string> = {
  'package.json': `${JSON.stringify(
    {
      name: 'invoice-kit',
      version: '0.3.1',
      type: 'module',
      bin: { invoice: 'dist/cli.js' },
      scripts: { build: 'tsc', test: 'vitest run' },
      devDependencies: { typescript: '^5.9.0', vitest: '^4.1.0' },
    },
    null,
    2,
  )}\n`,
  'tsconfig.json': `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, outDir: 'dist' }, include: ['src'] }, null, 2)}\n`,
  'README.md': '# invoice-kit\n\nTotals, taxes and a tiny CLI for plain-text invoices.\n',
  'src/format.ts': `/** Money as the invoices print it. */

${FORMAT_BEFORE}

export function formatQuantity(quantity: number, unit: string): string {
  return quantity === 1 ? \`1 \${unit}\` : \`\${quantity} \${unit}s\`;
}
`,
  'src/invoice.ts': `import { formatTotal } from './format.js';

export interface LineItem {
  description: string;
  quantity: number;
  unitCents: number;
}

export interface Invoice {
  number: string;
  items: LineItem[];
  taxRate: number;
}

export function subtotalCents(invoice: Invoice): number {
  return invoice.items.reduce((sum, item) => sum + item.quantity * item.unitCents, 0);
}

export function summary(invoice: Invoice): string {
  const total = Math.round(subtotalCents(invoice) * (1 + invoice.taxRate));
  return \`Invoice \${invoice.number}: \${formatTotal(total)}\`;
}
`,
  'src/cli.ts': `import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { summary, type Invoice } from './invoice.js';

const { positionals } = parseArgs({ allowPositionals: true });
for (const path of positionals) {
  const invoice = JSON.parse(readFileSync(path, 'utf8')) as Invoice;
  console.log(summary(invoice));
}
`,
  'test/format.test.ts': `import { expect, it } from 'vitest';
import { formatTotal } from '../src/format.js';

it('prints cents as dollars', () => {
  expect(formatTotal(123456)).toBe('$1234.56');
});
`,
};
