/**
 * Issue 11 "Done when": a real browser (playwright-core driving Debian's chromium) opens the rendered
 * report.html of a verified and an unverified run, checks the verdict, gates and timeline are visible
 * at desktop and phone width, and saves screenshots under test-output/.
 * The verified page is the real `proofpr demo` run's report; the unverified one a fixture run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderRunFolder } from '../../src/agent/evidence/render-run.js';
import { runDemo } from '../../src/hosts/cli/demo.js';
import { tempDir } from '../kit/temp.js';

/** The slice of playwright-core's API this test uses (typed here so tsc passes before the package is installed). */
interface Locator {
  isVisible(): Promise<boolean>;
  innerText(): Promise<string>;
  count(): Promise<number>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  locator(selector: string): Locator;
  screenshot(opts: { path: string; fullPage?: boolean }): Promise<unknown>;
  evaluate<T>(fn: () => T): Promise<T>;
  on(event: 'request', cb: (req: { url(): string }) => void): void;
  close(): Promise<void>;
}
interface Browser {
  newPage(opts?: { viewport?: { width: number; height: number } }): Promise<Page>;
  close(): Promise<void>;
}
interface PlaywrightCore {
  chromium: { launch(opts: { executablePath: string; headless?: boolean; args?: string[] }): Promise<Browser> };
}

/** CHROMIUM_PATH, else the first Chromium/Chrome found (Debian's chromium, Ubuntu's, a hosted runner's Chrome). */
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'].find((p) =>
    existsSync(p),
  ) ??
  '/usr/bin/chromium';
const OUT = join(process.cwd(), 'test-output', 'browser');
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 740 } } as const;

let demoReport: Promise<string> | undefined;

/** The demo runs once (real harness, replayed model); its report is the verified page. */
function demoReportPath(): Promise<string> {
  demoReport ??= runDemo(() => undefined).then((r) => {
    expect(r.exitCode).toBe(0);
    return join(r.runDir, 'report.html');
  });
  return demoReport;
}

async function renderFixture(name: string): Promise<string> {
  if (name === 'verified') return demoReportPath();
  const dir = join(tempDir('proofpr-browser-'), name);
  cpSync(join(process.cwd(), 'test/fixtures/runs', name), dir, { recursive: true });
  await renderRunFolder(dir, { diff: readFileSync(join(dir, 'changes.diff'), 'utf8') });
  return join(dir, 'report.html');
}

describe('report.html in a real browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    const moduleName = 'playwright-core';
    const pw = (await import(moduleName)) as PlaywrightCore;
    browser = await pw.chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    mkdirSync(OUT, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  const cases = [
    { run: 'verified', label: 'Verified', gateState: 'pass' },
    { run: 'unverified', label: 'Unverified', gateState: 'fail' },
  ] as const;

  for (const c of cases) {
    for (const [vpName, viewport] of Object.entries(VIEWPORTS)) {
      it(`browser report - ${c.run} run at ${vpName} width shows verdict, gates and timeline`, async () => {
        const file = await renderFixture(c.run);
        const page = await browser.newPage({ viewport });
        const requests: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        await page.goto(pathToFileURL(file).href);

        const verdict = page.locator('#verdict');
        expect(await verdict.isVisible()).toBe(true);
        expect(await verdict.innerText()).toContain(c.label.toUpperCase());
        expect(await page.locator('#gates').isVisible()).toBe(true);
        expect(await page.locator(`#gates .gate.${c.gateState}`).count()).toBeGreaterThan(0);
        expect(await page.locator('#timeline').isVisible()).toBe(true);
        expect(await page.locator('#timeline .turn').count()).toBeGreaterThan(3);
        expect(await page.locator('#tests').isVisible()).toBe(true);
        expect(await page.locator('#usage-chart').isVisible()).toBe(true);
        expect(await page.locator('#diff').isVisible()).toBe(true);
        expect(await page.locator('#timeline .ev.denied').count()).toBeGreaterThan(0);

        // Readable on a phone: the page itself never scrolls sideways (only <pre> blocks may).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        // Self-contained: the only request is the file itself.
        expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);

        const shot = join(OUT, `report-${c.run}-${vpName}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        expect(statSync(shot).size).toBeGreaterThan(10_000);
        await page.close();
      });
    }
  }
});
