import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTranscript } from '../../src/agent/evidence/render-run.js';
import { renderReportHtml } from '../../src/agent/evidence/report-html.js';
import type { Evidence } from '../../src/agent/evidence/types.js';
import type { RunEvent } from '../../src/agent/events.js';

const dir = (name: string) => join(process.cwd(), 'test/fixtures/runs', name);
const load = (name: string) => ({
  evidence: JSON.parse(readFileSync(join(dir(name), 'evidence.json'), 'utf8')) as Evidence,
  events: readTranscript(join(dir(name), 'transcript.jsonl')),
  diff: readFileSync(join(dir(name), 'changes.diff'), 'utf8'),
});

describe('renderReportHtml', () => {
  const v = load('verified');
  const html = renderReportHtml(v.evidence, v.events, { diff: v.diff });

  it('report - has the stable ids the browser test uses', () => {
    for (const id of ['verdict', 'gates', 'timeline', 'tests', 'diff', 'usage-chart']) {
      expect(html).toContain(`id="${id}"`);
      expect(html).toContain(`data-testid="${id}"`);
    }
  });

  it('report - loads nothing from the network and carries a strict CSP', () => {
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    );
    expect(html).not.toMatch(/\b(src|href|action|poster|srcset)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<(link|iframe|img|object|embed)\b/i);
  });

  it('report - shows the verdict and reason, gates, tests with tree hashes, denied call and coloured diff', () => {
    expect(html).toContain('class="verdict v-verified"');
    expect(html).toContain(v.evidence.reason);
    expect(html).toContain('data-gate="tests-fresh"');
    expect(html).toContain('7c2e7c2e7c');
    expect(html).toMatch(/<li class="ev call denied" data-kind="tool" data-tool="Bash">/);
    expect(html).toContain('rule Bash(curl:*): network access is not allowed');
    expect(html).toContain('<span class="add">+  out.push(field);</span>');
    expect(html).toContain('Compaction (microcompact)');
    expect(html).toContain('Final gates: all passed');
  });

  it('report - one turn block per assistant event, with tokens and cost', () => {
    const turns = v.events.filter((e) => e.type === 'assistant').length;
    expect(html.match(/<li class="turn" id="turn-/g)).toHaveLength(turns);
    expect(html.match(/<g><title>Turn /g)).toHaveLength(turns);
  });

  it('report - escapes script injected through a tool input, a preview, and the evidence', () => {
    const evil = '</code><script>alert(1)</script><img src=x onerror=alert(2)>';
    const events: RunEvent[] = [
      ...v.events,
      { type: 'tool_call', ts: 't', id: 'x1', name: 'Bash', input: { command: evil } },
      { type: 'tool_result', ts: 't', id: 'x1', name: 'Bash', isError: true, errorKind: '"><script>', preview: evil, durationMs: 1 },
      { type: 'error', ts: 't', kind: 'internal', message: evil },
    ];
    const ev: Evidence = { ...v.evidence, reason: evil, gates: [{ name: evil, passed: false, detail: evil }] };
    const out = renderReportHtml(ev, events, { diff: `+${evil}\n` });
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('report - unverified run is coloured as such and highlights the hook-blocked call and failed gates', () => {
    const u = load('unverified');
    const out = renderReportHtml(u.evidence, u.events, { diff: u.diff });
    expect(out).toContain('class="verdict v-unverified"');
    expect(out).toContain('<li class="gate fail" data-gate="assertions-kept">');
    expect(out).toMatch(/<li class="ev call denied" data-kind="tool" data-tool="Write">/);
    expect(out).toContain('Stop gates: 1 failed, model sent back');
    expect(out).toContain('Stop gates: 1 failed</b>');
    expect(out).toContain('data-kind="retry"');
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('report - renders with no events and no diff', () => {
    const out = renderReportHtml(v.evidence, []);
    expect(out).toContain('The transcript holds no events.');
    expect(out).toContain('No diff was recorded');
    expect(out).toContain('id="usage-chart"');
  });
});
