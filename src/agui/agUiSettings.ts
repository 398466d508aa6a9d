// The AG-UI endpoint's own settings (`tandem.agui.*`), validated with zod like
// the agent's: a bad value gives a warning naming the key and the default.
// Shared by the VS Code host and the headless server.
import { z } from 'zod';

/** The port the endpoint listens on when `tandem.agui.port` is not set. */
export const DEFAULT_AGUI_PORT = 7431;

export interface AgUiSettings {
  readonly enabled: boolean;
  /** 0 = any free port (the headless server's default). */
  readonly port: number;
  /** Browser origins allowed to call the endpoint (CORS); requests without an Origin header are not browsers and pass. */
  readonly allowedOrigins: readonly string[];
}

const origin = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^/\s]+$/i.test(value), 'an origin is scheme://host[:port], without a path')
  .transform((value) => value.toLowerCase());

const fields = {
  'agui.enabled': { schema: z.boolean(), fallback: false },
  'agui.port': { schema: z.number().int().min(0).max(65535), fallback: DEFAULT_AGUI_PORT },
  'agui.allowedOrigins': { schema: z.array(origin), fallback: [] as string[] },
} as const;

export type AgUiSettingKey = keyof typeof fields;
export const AGUI_SETTING_KEYS = Object.keys(fields) as AgUiSettingKey[];

export function resolveAgUiSettings(raw: Partial<Record<AgUiSettingKey, unknown>>): { settings: AgUiSettings; warnings: string[] } {
  const warnings: string[] = [];
  const value = <K extends AgUiSettingKey>(key: K): z.infer<(typeof fields)[K]['schema']> => {
    const field = fields[key];
    const candidate = raw[key];
    if (candidate === undefined) return field.fallback as z.infer<(typeof fields)[K]['schema']>;
    const result = field.schema.safeParse(candidate);
    if (result.success) return result.data as z.infer<(typeof fields)[K]['schema']>;
    const fault = result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ` : '') + issue.message).join('; ');
    warnings.push(`tandem.${key} = ${JSON.stringify(candidate)} is invalid (${fault}); using the default ${JSON.stringify(field.fallback)}.`);
    return field.fallback as z.infer<(typeof fields)[K]['schema']>;
  };
  return {
    settings: { enabled: value('agui.enabled'), port: value('agui.port'), allowedOrigins: value('agui.allowedOrigins') },
    warnings,
  };
}
