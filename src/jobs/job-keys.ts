/**
 * The per-repository and per-issue keys of a queued job (the per-repository limit and the per-issue
 * lease): jobs shaped like a FixJob (`data.trigger.owner/repo/number`) or a sweep or a learning job (`kind: 'sweep' | 'learn'`, `owner`, `repo`).
 */

interface TriggerLike {
  trigger?: { owner?: unknown; repo?: unknown; number?: unknown };
}

export function repoOfJob(data: unknown): string | undefined {
  const sweep = data as { kind?: unknown; owner?: unknown; repo?: unknown } | null;
  if ((sweep?.kind === 'sweep' || sweep?.kind === 'learn') && typeof sweep.owner === 'string' && typeof sweep.repo === 'string')
    return `${sweep.owner}/${sweep.repo}`;
  const t = (data as TriggerLike | null)?.trigger;
  return t && typeof t.owner === 'string' && typeof t.repo === 'string' ? `${t.owner}/${t.repo}` : undefined;
}

export function issueOfJob(data: unknown): string | undefined {
  const t = (data as TriggerLike | null)?.trigger;
  const repo = repoOfJob(data);
  return repo && typeof t?.number === 'number' ? `${repo}#${t.number}` : undefined;
}
