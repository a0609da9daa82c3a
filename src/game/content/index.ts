export { ContentGenerator } from './content-generator';
export type { ContentRequest, ContentResult, ContentGeneratorOptions } from './content-generator';
