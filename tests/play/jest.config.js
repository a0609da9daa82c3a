/**
 * The web build on the real engine, run by scripts/web/test-play.mjs: the effect compiler on the
 * engine's own sources (tests/web/effects/, engine tree in OAM_ENGINE_ROOT) and the tavern in
 * Chromium (tests/play/; the sites' addresses in OAM_PLAY_URL, OAM_PLAY_BROKEN_URL and
 * OAM_PLAY_SERVER_URL).
 */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/tests/play', '<rootDir>/tests/web/effects'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 120000,
};
