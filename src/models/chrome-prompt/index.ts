export { ChromePromptModel, samplingModeFor } from './chrome-prompt-model';
export type { ChromePromptModelOptions, ChromeDownloadProgress, ChromeDownloadOptions } from './chrome-prompt-model';
export type { PromptApi, PromptSession, PromptAvailability, SamplingMode } from './prompt-api';
export { PreferAvailableModel } from './prefer-available';
