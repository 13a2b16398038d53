import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The slowest files start first, so on two cores the OCR test has one fork to itself from the start
// and everything else shares the other; on a fresh clone vitest has no timings to sort by.
const SLOW_FIRST = ['ocr-path.test.ts', 'e2e-kcsat.test.ts', 'e2e-families.test.ts'];
const rank = (f: TestSpecification) => {
  const i = SLOW_FIRST.findIndex(name => f.moduleId.endsWith(`/${name}`));
  return i < 0 ? SLOW_FIRST.length : i;
};

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(x => x.f);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: SlowFirst },
  },
});
