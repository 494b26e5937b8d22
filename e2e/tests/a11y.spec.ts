import { expectNoSeriousA11yViolations } from '../fixtures/axe.ts';
import { test } from '../fixtures/index.ts';
import { PAGE_VISITS } from '../fixtures/pages.ts';

test.describe('accessibility: axe-core finds no serious or critical violation (issue 3 quality)', () => {
  for (const { name, visit } of PAGE_VISITS) {
    test(`axe: ${name}`, async ({ page, visitContext }) => {
      await visit(page, visitContext);
      await expectNoSeriousA11yViolations(page, name);
    });
  }
});
