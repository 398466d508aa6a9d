import { writeFileSync } from 'node:fs';
import { readRuleText } from './src/tools/rulesFiles';
(async () => {
  const f = '/dev/shm/big-agents.md';
  writeFileSync(f, Buffer.alloc(600 * 1024 * 1024, 0x61));
  const t = Date.now();
  try { const x = await readRuleText(f); console.log('len', x?.length, Date.now() - t, 'ms', Math.round(process.memoryUsage().rss / 1e6), 'MB rss'); }
  catch (e) { console.log('threw', String(e), Date.now() - t, 'ms'); }
})();
