/** jest 30 + ts-jest: every TypeScript test under tests/ but the real-engine suite. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  // tests/engine/ runs on the real Cocos engine through its own jest (scripts/test-engine.mjs);
  // tests/play/ and tests/web/effects/ need the engine too: scripts/web/test-play.mjs runs them.
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/tests/engine/',
    '<rootDir>/tests/play/',
    '<rootDir>/tests/web/effects/',
  ],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 20000,
};
