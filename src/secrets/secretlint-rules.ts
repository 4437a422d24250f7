/**
 * The maintained part of the pattern set: secretlint's recommended rules (@secretlint/secretlint-rule-preset-recommend),
 * driven directly. Each scanner rule reports ranges synchronously from `file(source)`; we give it a source with no
 * file path (so nothing is read from disk) and collect the ranges.
 */
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { TokenRule } from './rule.js';

interface Report {
  range: readonly [number, number];
}
interface RuleContext {
  createTranslator(): (key: string) => string;
  report(descriptor: Report): void;
  ignore(descriptor: Report): void;
}
interface RuleHandlers {
  file?(source: { content: string; contentType: 'text'; ext: string; filePath?: string }): unknown;
}
interface RuleCreator {
  meta: { id: string; type: string };
  create(context: RuleContext, options: Record<string, unknown>): RuleHandlers;
}

/** Options per rule: the AWS rule scans access key ids only when asked. */
const OPTIONS: Record<string, Record<string, unknown>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

/** Rules that are not scanners of content (the comment-directive filter). */
const SKIPPED = new Set(['@secretlint/secretlint-rule-filter-comments']);

function wrap(rule: RuleCreator): TokenRule {
  const options = OPTIONS[rule.meta.id] ?? {};
  return {
    id: rule.meta.id.replace('@secretlint/secretlint-rule-', 'secretlint/'),
    source: `${rule.meta.id} (secretlint recommended preset)`,
    confident: true,
    find(text) {
      const spans: Array<readonly [number, number]> = [];
      const context: RuleContext = {
        createTranslator: () => (key) => key,
        report: (d) => void spans.push([d.range[0], d.range[1]]),
        ignore: () => undefined,
      };
      // A JSON-looking text is offered as a .json file: the GCP rule judges service-account key files by that.
      const ext = /^\s*\{/.test(text) ? '.json' : '';
      const result = rule.create(context, options).file?.({ content: text, contentType: 'text', ext });
      if (result instanceof Promise) result.catch(() => undefined);
      return spans;
    },
  };
}

/** secretlint's recommended scanner rules, as token rules named `secretlint/<rule>`. */
export const SECRETLINT_RULES: readonly TokenRule[] = (presetRules as unknown as RuleCreator[])
  .filter((r) => r.meta.type === 'scanner' && !SKIPPED.has(r.meta.id))
  .map(wrap);
