/** The JSON Schema module: builders, reading, validation (ajv), safe coercion, ordering, rendering in words. */
export { JsonSchema } from './json-schema';
export type { CheckResult, JsonObjectSchema } from './json-schema';
export { formatViolations } from './violations';
export type { Violation } from './violations';
