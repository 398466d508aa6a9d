// API keys in SecretStorage, one per endpoint (base URL), because the two
// phases may talk to different providers (say OpenRouter and a local Ollama).
// A local endpoint needs no key. A stored key goes only to the base URL it was
// stored for; OPENAI_API_KEY only where src/agent/apiKeyScope.ts allows it.
import * as vscode from 'vscode';
import { chooseApiKey, secretKeyFor } from '../agent/apiKeyScope';

export { secretKeyFor };

export class ApiKeys {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The key stored for this endpoint, else OPENAI_API_KEY when `baseUrl` is OpenAI's or one the user set, else undefined. */
  async keyFor(baseUrl: string, userBaseUrls: readonly string[]): Promise<string | undefined> {
    const stored = await this.secrets.get(secretKeyFor(baseUrl));
    return chooseApiKey({ baseUrl, stored, environmentKey: this.env['OPENAI_API_KEY'], userBaseUrls });
  }

  /** Whether a key is stored for this endpoint (OPENAI_API_KEY aside). */
  async has(baseUrl: string): Promise<boolean> {
    return (await this.secrets.get(secretKeyFor(baseUrl))) !== undefined;
  }

  async set(baseUrl: string, key: string): Promise<void> {
    await this.secrets.store(secretKeyFor(baseUrl), key);
  }

  async delete(baseUrl: string): Promise<void> {
    await this.secrets.delete(secretKeyFor(baseUrl));
  }

  /** Asks for the endpoint (when there are two) and the key; empty input removes it. */
  async prompt(baseUrls: readonly string[]): Promise<void> {
    const unique = [...new Set(baseUrls)];
    const baseUrl =
      unique.length === 1
        ? unique[0]
        : await vscode.window.showQuickPick(unique, { title: 'Tandem: set the API key for which endpoint?' });
    if (!baseUrl) return;
    const key = await vscode.window.showInputBox({
      title: `Tandem: API key for ${baseUrl}`,
      prompt: 'Stored in VS Code SecretStorage and sent only to this endpoint. Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key.trim() === '') {
      await this.delete(baseUrl);
      void vscode.window.showInformationMessage(`Tandem: API key for ${baseUrl} removed.`);
    } else {
      await this.set(baseUrl, key.trim());
      void vscode.window.showInformationMessage(`Tandem: API key for ${baseUrl} saved.`);
    }
  }
}
