// `npm run agui -- --folder DIR [--port N] [--settings FILE] [--token T]
//  [--allow-mcp] [--approve readOnly|all|none]`: the AG-UI endpoint without
// VS Code. stdout carries exactly the contract lines (LISTENING, TOKEN);
// diagnostics go to stderr.
import { parseArguments, UsageError, USAGE } from './cliArguments';
import { startHeadlessAgent, type HeadlessOptions } from './headlessAgent';

async function main(): Promise<void> {
  let options: HeadlessOptions;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // --help (a usage error without a message) is an answer, not a mistake: stdout, status 0.
    if (!error.message) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    process.stderr.write(`agui: ${error.message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const agent = await startHeadlessAgent({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`LISTENING ${agent.url}\n`);
  if (agent.generatedToken) process.stdout.write(`TOKEN ${agent.token}\n`);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void agent.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`agui: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
