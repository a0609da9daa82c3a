export { DecisionEngine, checkDecision } from './decision-engine';
export type {
  Decision,
  DecisionOption,
  DecisionRequest,
  DecisionEngineOptions,
  DecisionResult,
} from './decision-engine';
