// Converts each row of the workload (a JSON array of [value, from, to] in
// UCUM codes, argv[2]) with @lhncbc/ucum-lhc and prints one result per
// line, as `unitd convert -` prints its stream; exits 1 if any row fails.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ucum = require('@lhncbc/ucum-lhc');
const utils = ucum.UcumLhcUtils.getInstance();
const rows = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = [];
let failed = 0;
for (const [value, from, to] of rows) {
  const r = utils.convertUnitTo(from, Number(value), to);
  if (r.status !== 'succeeded') {
    failed++;
    out.push('error: ' + r.status + ' ' + (r.msg || []).join('; '));
  } else {
    out.push(String(r.toVal) + ' ' + to);
  }
}
process.stdout.write(out.join('\n') + '\n');
process.exit(failed ? 1 : 0);
