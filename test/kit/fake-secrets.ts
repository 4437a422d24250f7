/**
 * Real-shaped fake credentials for fixtures: a file is a secret by what it holds (src/secrets/files.ts),
 * so a fixture that stands for a secret file holds one of these, never `SECRET=1`. None is real.
 */
export const FAKE_AWS_ID = 'AKIAQ3EGRT7TWPKLMZ4N';
export const FAKE_AWS_SECRET = 'kR7vB2xN9qL4mT8wZ1cF6hJ3pS5dG0yU2eA7iO4n';
/** A dotenv file holding an AWS key pair. */
export const FAKE_AWS_ENV = `AWS_ACCESS_KEY_ID=${FAKE_AWS_ID}\nAWS_SECRET_ACCESS_KEY=${FAKE_AWS_SECRET}\n`;
export const FAKE_NPM_TOKEN = 'npm_Zk3qT8vW1xY5bN7mR2pL9dF4hJ6sA0cE3gK8';
export const FAKE_PASSWORD = 'Xk9#mP2!qL7zR4w';
/** A private key armor block with a body (a block with `x` for a body is no key). */
export const FAKE_PEM = (kind = 'PRIVATE KEY'): string =>
  `-----BEGIN ${kind}-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n-----END ${kind}-----\n`;
