/** jest 30 + ts-jest: every TypeScript test under tests/ but the real-engine suite. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  // tests/engine/ runs on the real Cocos engine through its own jest (scripts/test-engine.mjs).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/engine/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 20000,
};
