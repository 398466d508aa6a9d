// A tool asking the user for input mid-call (an MCP server's elicitation/create):
// a form from a flat JSON schema, or a page to visit. The types live here,
// below the MCP layer, so a tool call's context can carry the asking.

export interface ElicitationSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required?: readonly string[] | undefined;
}

export type ElicitationRequest =
  | { readonly mode: 'form'; readonly serverName: string; readonly message: string; readonly requestedSchema: ElicitationSchema }
  | { readonly mode: 'url'; readonly serverName: string; readonly message: string; readonly url: string; readonly elicitationId: string };

export type ElicitationContent = Readonly<Record<string, string | number | boolean | readonly string[]>>;

export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: ElicitationContent | undefined }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** Asks the user; resolves with the answer (`cancel` when nobody can answer). */
export type ElicitationHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
