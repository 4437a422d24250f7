/**
 * Cases known to be harmful today, each with the effect seen and the mechanism that is missing. The list
 * may only shrink: the corpus test fails when a case not listed here is harmful, and when a listed case
 * is no longer harmful (then delete its line). Run-level entries (`run:` + the start of the effect) name
 * effects no single case can be blamed for.
 */
export const KNOWN_HARMFUL: Record<string, string> = {};
