/** jest 30 + ts-jest: every TypeScript test under tests/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 20000,
};
