export { normalizePersona, tidyText, PERSONA_DEFAULTS, PERSONA_FIELDS } from './persona';
export type { Persona, NormalizedPersona } from './persona';
export { parsePersona, validatePersona, formatPersonaProblems, PERSONA_SCHEMA } from './validate-persona';
export type { PersonaProblem, PersonaValidation } from './validate-persona';
export { renderPersonaInstructions } from './render-instructions';
export type { PersonaInstructionOptions } from './render-instructions';
export { findJsonSyntaxError } from './json-syntax-error';
export type { JsonSyntaxError } from './json-syntax-error';
export { stripSpeakerLabel, stripWrappingQuotes, cleanLine, LineCleaner } from '../../core/prompt/text-cleanup';
