/**
 * A profile's tools as AgentTools: a small declarative rule table stands in for the game's code
 * (a fixed result, a template over the arguments and the world, world writes, cases by argument),
 * a handler the host registers by name runs real game code, and "external" waits for the game or
 * for the designer's answer in the preview.
 */
import { AgentError } from '../../contract/errors';
import { AgentTool, ToolOutput } from '../../core/tools';
import type { WorldState } from '../world';

/** One rule: write these world paths, then answer with the result (or the error). */
export interface ProfileRule {
  set?: Record<string, unknown>;
  result?: unknown;
  error?: string;
}

export interface ProfileRuleCase extends ProfileRule {
  /** Argument names (or `world.PATH`) and the values they must have; strings compare without case. */
  when: Record<string, unknown>;
}

export interface ProfileRuleTable extends ProfileRule {
  cases?: ProfileRuleCase[];
}

export type ProfileToolAnswer = 'external' | { handler: string } | ProfileRuleTable;

export interface ProfileToolDeclaration {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  sideEffect?: boolean;
  readAhead?: boolean;
  timeoutMs?: number;
  answer: ProfileToolAnswer;
  standIn?: { words?: string[]; args?: Record<string, unknown> };
}

/** What a host-registered handler gets besides the call's arguments. */
export interface ProfileHandlerContext {
  world?: WorldState;
}

export type ProfileToolHandler = (args: Record<string, unknown>, context: ProfileHandlerContext) => unknown;

const PLACEHOLDER = /\{\{\s*(args|world)\.([^{}\s]+)\s*\}\}/g;
const ARGS_PLACEHOLDER = /\{\{\s*args\.([^{}\s]+)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*(args|world)\.([^{}\s]+)\s*\}\}$/;

interface Scope {
  args: Record<string, unknown>;
  world?: WorldState;
}

function lookup(scope: Scope, where: string, path: string): unknown {
  if (where === 'args') {
    let value: unknown = scope.args;
    for (const key of path.split('.')) {
      if (!value || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  }
  return scope.world ? scope.world.get(path) : undefined;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A template with its placeholders filled in (see the schema's `template`). */
export function fillTemplate(template: unknown, scope: Scope): unknown {
  if (typeof template === 'string') return fillString(template, scope);
  if (Array.isArray(template)) return template.map((entry) => fillTemplate(entry, scope));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(template)) out[key] = fillTemplate((template as Record<string, unknown>)[key], scope);
    return out;
  }
  return template;
}

/**
 * Arguments first, then the world, so an argument may name a world path
 * (`{{world.smithy.wares.{{args.item}}}}`); a string that is one placeholder is its value as it is.
 */
function fillString(template: string, scope: Scope): unknown {
  const whole = WHOLE_PLACEHOLDER.exec(template);
  if (whole && whole[1] === 'args') return lookup(scope, 'args', whole[2]) ?? null;
  const expanded = template.replace(ARGS_PLACEHOLDER, (_match, path: string) => asText(lookup(scope, 'args', path)));
  const world = WHOLE_PLACEHOLDER.exec(expanded);
  if (world) return lookup(scope, world[1], world[2]) ?? null;
  return expanded.replace(PLACEHOLDER, (_match, where: string, path: string) => asText(lookup(scope, where, path)));
}

/** True when a template reads the world anywhere (so the profile needs one). */
export function readsWorld(template: unknown): boolean {
  if (typeof template === 'string') return /\{\{\s*world\./.test(template);
  if (Array.isArray(template)) return template.some(readsWorld);
  if (template && typeof template === 'object')
    return Object.keys(template).some((key) => key.startsWith('world.') || readsWorld((template as never)[key]));
  return false;
}

function sameValue(actual: unknown, wanted: unknown): boolean {
  if (typeof actual === 'string' && typeof wanted === 'string') return actual.toLowerCase() === wanted.toLowerCase();
  return JSON.stringify(actual) === JSON.stringify(wanted);
}

function caseMatches(rule: ProfileRuleCase, scope: Scope): boolean {
  return Object.keys(rule.when).every((key) => {
    const actual = key.startsWith('world.') ? lookup(scope, 'world', key.slice(6)) : lookup(scope, 'args', key);
    return sameValue(actual, rule.when[key]);
  });
}

function applyRule(rule: ProfileRule, scope: Scope): unknown {
  for (const path of Object.keys(rule.set ?? {})) {
    const value = fillTemplate((rule.set as Record<string, unknown>)[path], scope);
    (scope.world as WorldState).set(path, value as never);
  }
  if (rule.error !== undefined) return ToolOutput.error(asText(fillTemplate(rule.error, scope)));
  return fillTemplate(rule.result === undefined ? 'Done.' : rule.result, scope);
}

function hasAnswer(rule: ProfileRule): boolean {
  return rule.result !== undefined || rule.error !== undefined || rule.set !== undefined;
}

/** The answer of a rule table for one call: the first case that matches, else the table's own rule. */
export function answerByRules(table: ProfileRuleTable, scope: Scope): unknown {
  const matched = (table.cases ?? []).find((rule) => caseMatches(rule, scope));
  if (matched) return applyRule(matched, scope);
  if (hasAnswer(table)) return applyRule(table, scope);
  return ToolOutput.error(`Nothing is set up for ${JSON.stringify(scope.args)}.`);
}

/** One declaration as an AgentTool; `where` names it in every refusal (`profile.tools[1] (forge_item)`). */
export function profileTool(
  declaration: ProfileToolDeclaration,
  context: { world?: WorldState; handlers: Record<string, ProfileToolHandler>; where: string },
): AgentTool {
  const { world, handlers, where } = context;
  const answer = declaration.answer;
  const definition = definitionOf(declaration);
  try {
    if (answer === 'external') {
      if (declaration.readAhead)
        throw new AgentError('invalid_request', 'readAhead needs a rule table to read (not "external")');
      return AgentTool.external(definition);
    }
    if ('handler' in answer) {
      const handler = Object.prototype.hasOwnProperty.call(handlers, answer.handler)
        ? handlers[answer.handler]
        : undefined;
      if (typeof handler !== 'function') {
        const known = Object.keys(handlers);
        throw new AgentError(
          'invalid_request',
          `answer.handler ${JSON.stringify(answer.handler)} is not a handler this host registers (${known.length > 0 ? `it has ${known.join(', ')}` : 'it registers none'}); use a rule table or "external" instead`,
        );
      }
      if (declaration.readAhead) throw new AgentError('invalid_request', 'readAhead needs a rule table to read');
      return AgentTool.local(definition, (args: Record<string, unknown>) => handler(args, { world }));
    }
    return ruleTool(declaration, answer, world);
  } catch (error) {
    const refused = AgentError.from(error, 'invalid_request');
    throw new AgentError(refused.code, `${where}: ${refused.message}`);
  }
}

/** What AgentTool needs of a declaration, whatever answers it. */
function definitionOf(declaration: ProfileToolDeclaration) {
  return {
    name: declaration.name,
    description: declaration.description,
    parameters: declaration.parameters,
    sideEffect: declaration.sideEffect,
    timeoutMs: declaration.timeoutMs,
  };
}

function ruleTool(declaration: ProfileToolDeclaration, table: ProfileRuleTable, world?: WorldState): AgentTool {
  const rules: unknown[] = [table, ...(table.cases ?? [])];
  if (!world && rules.some((rule) => readsWorld(rule) || Object.keys((rule as ProfileRule).set ?? {}).length > 0))
    throw new AgentError('invalid_request', 'its answer reads or writes the world, but the profile has no "world"');
  if (!hasAnswer(table) && (table.cases ?? []).length === 0)
    throw new AgentError('invalid_request', 'answer needs a result, an error, set or cases');
  (table.cases ?? []).forEach((rule, index) => {
    if (!hasAnswer(rule))
      throw new AgentError('invalid_request', `answer.cases[${index}] needs a result, an error or set`);
  });
  const definition = definitionOf(declaration);
  if (declaration.readAhead) {
    if (declaration.parameters && Object.keys((declaration.parameters.properties as object) ?? {}).length > 0)
      throw new AgentError('invalid_request', 'readAhead is for a lookup without arguments');
    if (rules.some((rule) => (rule as ProfileRule).set !== undefined))
      throw new AgentError('invalid_request', 'readAhead is for a lookup: its answer may not set the world');
    const read = () => answerByRules(table, { args: {}, world });
    return AgentTool.local({ ...definition, snapshot: read }, read);
  }
  return AgentTool.local(definition, (args: Record<string, unknown>) => answerByRules(table, { args, world }));
}
