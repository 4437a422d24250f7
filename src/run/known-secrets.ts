/** Values that must never reach a transcript, a log line or a PR body: every secret-looking variable. */
export function knownSecrets(env: NodeJS.ProcessEnv = process.env, extra: string[] = []): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(env)) {
    if (v && v.length >= 8 && /token|key|secret|password|passwd|credential|auth|private/i.test(k)) out.add(v);
  }
  for (const s of extra) if (s && s.length >= 8) out.add(s);
  return [...out];
}
