/** The errors a query throws; all are SeekError. */
export class SeekError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** seek found no API key for the provider (its message names the variable to set). */
export class NoApiKeyError extends SeekError {
  constructor(readonly stderr: string) {
    super(stderr.trim() || 'seek found no API key');
  }
}

/** The seek process ended before the conversation did, or could not start. */
export class ProcessExitError extends SeekError {
  constructor(
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stderr: string,
  ) {
    super(`seek exited ${signal ? `on ${signal}` : `with status ${code}`}${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-5).join('\n')}` : ''}`);
  }
}

/** seek wrote something the SDK cannot read, or answered a control request with an error. */
export class ProtocolError extends SeekError {}

/** The query's abortController was aborted. */
export class AbortError extends SeekError {}
