import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { customAgentRule, loadCustomAgent, loadCustomAgents } from '../../../src/tools/customAgents';
import { RULE_FILE_CHAR_LIMIT } from '../../../src/tools/rulesFiles';
import { fileWorkspaces } from './workspaceTestKit';

const workspace = fileWorkspaces('tandem-agents-');

describe('custom agents', () => {
  it("are found in Tandem's, Copilot's and Copilot's older places, the first of a name wins, with their description, tools and instructions", async () => {
    const root = workspace({
      '.github/agents/reviewer.agent.md': "---\ndescription: Reviews without editing\ntools: ['codebase', 'problems']\nmodel: GPT-5\n---\nReview the code. Never edit.\n",
      '.github/chatmodes/planner.chatmode.md': '---\ndescription: Plans first\ntools:\n  - search\n---\nWrite a plan.\n',
      '.tandem/agents/reviewer.md': 'The workspace reviewer, found first.\n',
      '.github/agents/notes.txt': 'not an agent',
      '.github/agents/plain.md': 'not an .agent.md file',
    });
    const agents = await loadCustomAgents([{ path: root }]);
    assert.deepEqual(
      agents.map(({ name, file, description, tools, body }) => ({ name, file, description, tools, body })),
      [
        { name: 'reviewer', file: '.tandem/agents/reviewer.md', description: undefined, tools: undefined, body: 'The workspace reviewer, found first.' },
        { name: 'planner', file: '.github/chatmodes/planner.chatmode.md', description: 'Plans first', tools: ['search'], body: 'Write a plan.' },
      ],
    );
    // One by name, as a run looks it up: only that name's files, the same precedence; a name that is a path is none.
    assert.equal((await loadCustomAgent([{ path: root }], 'reviewer'))?.file, '.tandem/agents/reviewer.md');
    assert.equal((await loadCustomAgent([{ path: root }], 'planner'))?.body, 'Write a plan.');
    assert.equal(await loadCustomAgent([{ path: root }], 'nobody'), undefined);
    assert.equal(await loadCustomAgent([{ path: root }], '../agents/reviewer'), undefined);
    assert.equal(await loadCustomAgent([{ path: root }], '*'), undefined);
    const copilots = await loadCustomAgents([{ path: workspace({ '.github/agents/reviewer.agent.md': "---\ndescription: Reviews\ntools: ['codebase', 'problems']\n---\nReview the code.\n" }) }]);
    assert.deepEqual(copilots[0]?.tools, ['codebase', 'problems']);
  });

  it('join the rules as their instructions, named and capped as a rules file is', () => {
    const rule = customAgentRule({ name: 'reviewer', file: '.github/agents/reviewer.agent.md', description: undefined, tools: undefined, body: 'Review the code.' });
    assert.deepEqual(rule, { path: '.github/agents/reviewer.agent.md', text: 'The custom agent "reviewer" the user works with: follow its instructions.\n\nReview the code.' });
    const long = customAgentRule({ name: 'long', file: '.tandem/agents/long.md', description: undefined, tools: undefined, body: 'x'.repeat(RULE_FILE_CHAR_LIMIT) });
    assert.equal(long.text.length, RULE_FILE_CHAR_LIMIT);
    assert.ok(long.cut && long.cut.shown === RULE_FILE_CHAR_LIMIT && long.cut.of > RULE_FILE_CHAR_LIMIT);
  });
});
