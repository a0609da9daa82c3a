/**
 * Shared helpers for the component tests. Each test file declares the module mocks itself
 * (jest hoists them per file):
 *   jest.mock('cc', () => require('./cc-double'), { virtual: true });
 *   jest.mock('cc/env', () => require('./cc-double').env, { virtual: true });
 *   jest.mock('../../assets/runtime/oam-core.js', () => jest.requireActual('../../src/bundle'), { virtual: true });
 * so the components run against src/ directly and no build is needed.
 */
import { Script, type ScriptStep } from '../../src/testing';
import { JsonAsset, Node, type Component } from './cc-double';

/** A reply step that fits whichever step the agent asks for (decide with inline reply, or structured). */
export function say(line: string, emotion = 'neutral'): ScriptStep {
  return Script.dynamic((request) =>
    request.kind === 'decide' ? JSON.stringify({ reply: { emotion, line } }) : JSON.stringify({ emotion, line }),
  );
}

export const MIRA = { name: 'Mira', role: 'innkeeper', personality: 'warm and quick-witted' };

export function persona(json: unknown = MIRA, name = 'mira.json'): JsonAsset {
  return JsonAsset.of(json, name);
}

/** Adds a component to an inactive node, sets its properties, then activates (onLoad runs). */
export function mount<T extends Component>(ctor: new () => T, props: Partial<T> = {}, node = new Node('npc')): T {
  const wasActive = node.active;
  node.active = false;
  const component = node.addComponent(ctor);
  Object.assign(component, props);
  node.active = wasActive;
  return component;
}

/** Collects every payload of the given node events, in order. */
export function record(node: Node, types: string[]): Array<{ type: string; payload: unknown }> {
  const seen: Array<{ type: string; payload: unknown }> = [];
  for (const type of types) node.on(type, (payload: unknown) => seen.push({ type, payload }));
  return seen;
}

export function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Silences console.warn and console.error in every test of a file (the components log set-up
 * problems on purpose) and runs `after` after each test; the spies are on the returned object.
 */
export function quietConsole(after: () => void = () => undefined): { warn: jest.SpyInstance; error: jest.SpyInstance } {
  const spies = {} as { warn: jest.SpyInstance; error: jest.SpyInstance };
  beforeEach(() => {
    spies.warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    spies.error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    spies.warn.mockRestore();
    spies.error.mockRestore();
    after();
  });
  return spies;
}
