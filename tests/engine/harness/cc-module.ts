/**
 * The module 'cc' for the real-engine suite: the engine v3.8.5's own base, 2d and ui exports in
 * one namespace (the feature units the packed scripts import; scripts/creator/pipeline.mjs
 * FEATURE_UNITS). The engine's harness (tests/init.ts) mocks 'cc' as base alone; this setup
 * file runs after it and widens the mock, so the tests and the packed scripts share one engine.
 */
jest.mock(
  'cc',
  () => ({
    ...jest.requireActual('../../../exports/base'),
    ...jest.requireActual('../../../exports/2d'),
    ...jest.requireActual('../../../exports/ui'),
  }),
  { virtual: true },
);

export {};
