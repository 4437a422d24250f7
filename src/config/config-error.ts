/** A configuration error (exit 2): the message names the key path and the fix; `issues` one line per problem. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly issues: string[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}
