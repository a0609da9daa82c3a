/**
 * The tavern in Chromium on the real engine's web build (run by scripts/web/test-play.mjs, which
 * builds the sites first and passes their folders in OAM_PLAY_SITE / OAM_PLAY_BROKEN_SITE).
 */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/tests/play'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 120000,
};
