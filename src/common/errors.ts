// One root error class with precise subclasses. Cancellation is its own
// error and is never reported to the user as a failure.

export class TandemError extends Error {
  /** What the user can do about it, shown next to the message. */
  readonly suggestion: string | undefined;
  constructor(message: string, options?: { cause?: unknown; suggestion?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.suggestion = options?.suggestion;
  }
}

/** The run was stopped by the user (or its owner went away). */
export class CancelledError extends TandemError {
  constructor(message = 'Stopped.') {
    super(message);
  }
}

/** A model endpoint failed and retries are spent (or the fault is not retryable). */
export class ModelApiError extends TandemError {
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly attempts: number;
  constructor(
    message: string,
    details: { status?: number | undefined; retryable: boolean; attempts: number; cause?: unknown; suggestion?: string },
  ) {
    super(message, { cause: details.cause, suggestion: details.suggestion });
    this.status = details.status;
    this.retryable = details.retryable;
    this.attempts = details.attempts;
  }
}

/**
 * The server said the request is larger than the model's context window. Not
 * retried as it is: the loop condenses the conversation and asks once more,
 * and when even that does not fit, says so with this error.
 */
export class ContextOverflowError extends ModelApiError {}

/** Settings that cannot be used as they are. */
export class ConfigurationError extends TandemError {}

/** A tool failed; the loop turns this into the tool's result text. */
export class ToolError extends TandemError {}

export function isCancellation(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError');
}
