/** A usage or configuration error: exit code 2, message names the flag, variable or config path. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
