// The layers of pipeline/, checked by `make typecheck` (dependency-cruiser): imports go one way, down.
//   lower:  what reads a page or a paper (text/, math/, structure/, keys/, pixels/, ocr/, providers/, pages/,
//           figures/, llm/, store/, lint/, and the modules at the top of pipeline/ that are no runner: the
//           document model, configuration, templates, ids, diagnostics)
//   stages: stages/ and corpus/ (each a step of the one ordered list in index.ts)
//   upper:  what runs or shows the stages' output (index.ts, paper.ts, run.ts, the CLIs, review/, export/,
//           splits/, server/, queue/, translate/, open-store.ts)
const LOWER = '^pipeline/((text|math|structure|keys|pixels|ocr|providers|pages|figures|llm|store|lint)/|[^/]+\\.ts$)';
const STAGES = '^pipeline/(stages|corpus)/';
const UPPER = '^pipeline/((review|export|splits|server|queue|translate)/|(index|run|cli|refresh-cli|run-report|open-store|paper|exit-status)\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: what two modules share belongs below both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'stage-imports-stage',
      severity: 'error',
      comment: 'A stage does not import another stage: what two stages share lives below them.',
      from: { path: '^pipeline/stages/([^/]+)\\.ts$' },
      to: { path: '^pipeline/stages/', pathNot: '^pipeline/stages/$1\\.ts$' },
    },
    {
      name: 'lower-imports-stage',
      severity: 'error',
      comment: 'Reading a page or a paper knows nothing of the stages that use it.',
      from: { path: LOWER, pathNot: UPPER },
      to: { path: STAGES },
    },
    {
      name: 'lower-or-stage-imports-upper',
      severity: 'error',
      comment: 'Nothing below the runner imports the runner, the review, the exports or translation.',
      from: { path: [LOWER, STAGES], pathNot: UPPER },
      to: { path: UPPER },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
