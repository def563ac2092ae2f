/**
 * Import rules checked in CI (`npm run lint:imports`): the platform stands on the ground floor,
 * and no two domain modules import each other (directly or around a circle).
 */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-module',
      comment: 'src/platform is the ground floor: modules register into it, it never imports them.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'no-circular',
      comment: 'No import circles; run with --collapse on modules, no two modules import each other.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
