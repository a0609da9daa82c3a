/**
 * The real-engine suite's jest config, run from the engine tree (scripts/test-engine.mjs copies
 * tests/engine/ to <engine>/tests/oam-cocos/): the engine's own config (its jsdom environment,
 * Babel transform, module mapping and setup files), 'cc' as the engine's base, 2d and ui exports
 * (harness/cc-module.ts), and only this suite's tests.
 */
const path = require('path');
const engineRoot = path.resolve(__dirname, '..', '..');
const engine = require(path.join(engineRoot, 'jest.config.js'));

module.exports = {
  ...engine,
  rootDir: engineRoot,
  testRegex: '/tests/oam-cocos/.*\\.test\\.ts$',
  testEnvironment: '<rootDir>/tests/oam-cocos/harness/environment.ts',
  setupFiles: [
    '<rootDir>/tests/oam-cocos/harness/timers.ts',
    ...engine.setupFiles,
    '<rootDir>/tests/oam-cocos/harness/cc-module.ts',
    '<rootDir>/tests/oam-cocos/harness/canvas-2d.ts',
  ],
  testTimeout: 20000,
};
