import fs from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures';

// Checks every page-level browser test makes: axe-core, no sideways scroll, screenshots for review.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const AXE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');

export type AxeResult = {
  passes: { id: string }[];
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown }[] }[];
};

/**
 * axe-core on the page as it is, and whether a modal dialog was open. The app's CSP
 * (script-src 'self') rightly refuses an injected <script> (page.addScriptTag), so axe's source
 * is evaluated through the DevTools protocol instead, which the page's CSP does not govern; the
 * page keeps its real CSP while it is checked.
 */
export async function runAxe(page: Page): Promise<{ result: AxeResult; modal: boolean }> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.evaluate(fs.readFileSync(AXE, 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResult> } })
      .axe;
    const modal = document.querySelector('dialog:modal') !== null;
    return { result: await axe.run(document), modal };
  });
}

/** Serious and critical violations fail, each named with where it is. */
export function expectNoSeriousIn(result: AxeResult, where: string) {
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} → ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
  expect(serious, `axe violations on ${where}`).toEqual([]);
}

/** axe-core on the page as it is: serious and critical violations fail. */
export async function expectNoSeriousViolations(page: Page, where: string) {
  expectNoSeriousIn((await runAxe(page)).result, where);
}

export async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `sideways scroll on ${where}`).toBeLessThanOrEqual(innerWidth);
}

/** A full-page screenshot in the test's output (screenshots/<name>.png), to look at. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  // From the top: the sticky header would otherwise land mid-page in a full-page picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  const dir = path.join(testInfo.project.outputDir, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
