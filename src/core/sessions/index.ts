export { AgentRunner, AgentSession, DEFAULT_MAX_SESSIONS } from './agent-runner';
export type { AgentRunnerOptions, SessionOptions, WhenFull } from './agent-runner';
export { checkId, checkSessionId, MAX_SESSION_ID_CHARS } from './session-id';
export { DEFAULT_MAX_TURNS, maxTurnsExceeded } from './turn-limit';
export type { OnMaxTurns, TurnLimit } from './turn-limit';
