/**
 * An error a user can act on: printed as one line (no stack) by the CLI, which
 * exits 2. `hint` says what to do about it.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UserError";
  }

  oneLine(): string {
    return this.hint ? `${this.message} — ${this.hint}` : this.message;
  }
}
