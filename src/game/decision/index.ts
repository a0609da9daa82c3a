export { DecisionEngine, checkDecision } from './decision-engine';
export type {
  Decision,
  DecisionOption,
  DecisionRequest,
  DecisionEngineOptions,
  DecisionResult,
} from './decision-engine';
export { chooseByWeight } from './weighted-choice';
export type { OptionConditions, WeightedOption } from './weighted-choice';
