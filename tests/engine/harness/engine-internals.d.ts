/** The engine's build constants as its jest harness provides them (tests/init.ts mocks this id). */
declare module 'internal:constants' {
  const constants: Record<string, unknown>;
  export = constants;
}
