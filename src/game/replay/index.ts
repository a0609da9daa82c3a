export { REPLAY_BUNDLE_FORMAT, REPLAY_BUNDLE_VERSION } from './replay-bundle';
export type {
  ReplayBundle,
  RecordedTurn,
  RecordedStep,
  RecordedToolCall,
  RecordedTool,
  RecordedError,
} from './replay-bundle';
export { parseReplayBundle, replayBundleProblems, REPLAY_BUNDLE_SCHEMA } from './validate-bundle';
export { tapModel } from './model-tap';
export type { TappedGeneration, TapListener } from './model-tap';
export { SessionRecorder } from './session-recorder';
export type { RecorderSetup } from './session-recorder';
export { ReplayModel } from './replay-model';
export type { Divergence, DivergentField } from './replay-model';
export { replayBundle } from './replay-bundle-run';
export type { ReplayOptions, ReplayReport, ReplayedTurn, TurnMismatch } from './replay-bundle-run';
export { bundleToPersonaTest } from './bundle-persona-test';
export type { BundlePersonaTest, ScriptStepJson } from './bundle-persona-test';
export { summarizeTurn } from './turn-summary';
