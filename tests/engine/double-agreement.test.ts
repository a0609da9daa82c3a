/**
 * The 'cc' test double (tests/cocos/cc-double.ts, kept for the native-build tests the real
 * engine cannot run headlessly) held to the real engine: the same scenarios run on both and
 * their traces must be equal. Covers what the double claims to model: event semantics, the
 * lifecycle order, and the deferred destroy with its field reset.
 */
import * as engine from 'cc';
import { freshScene, frame } from './harness/scene';

// The double sits beside this suite in the engine tree (scripts/test-engine.mjs copies it).
const double = require('./double/cc-double') as typeof import('../cocos/cc-double');

interface NodeLike {
  name: string;
  active: boolean;
  readonly isValid: boolean;
  on(type: string, cb: (...args: unknown[]) => void, target?: unknown): unknown;
  off(type: string, cb?: (...args: unknown[]) => void, target?: unknown): void;
  emit(type: string, ...args: unknown[]): void;
  hasEventListener(type: string): boolean;
  addComponent(ctor: unknown): unknown;
  destroy(): boolean;
}

interface Host {
  name: string;
  newNode(name: string): NodeLike;
  /** A component class whose lifecycle methods write to `trace`. */
  probe(trace: string[]): new () => { isValid: boolean; destroy(): boolean } & Record<string, unknown>;
  /** Puts a node into the running scene (the double has none: an active node counts as in it). */
  attach(node: NodeLike): void;
  endFrame(): void;
}

let probes = 0;
function probeBody(Base: new () => object, trace: string[]) {
  return class Probe extends (Base as new () => { isValid: boolean; destroy(): boolean }) {
    list: string[] = ['kept'];
    label = 'probe';
    count = 3;
    onLoad() {
      trace.push('onLoad');
    }
    onEnable() {
      trace.push('onEnable');
    }
    start() {
      trace.push('start');
    }
    onDisable() {
      trace.push('onDisable');
    }
    onDestroy() {
      trace.push('onDestroy');
    }
  };
}

const ENGINE: Host = {
  name: 'engine',
  newNode: (name) => new engine.Node(name) as unknown as NodeLike,
  probe: (trace) =>
    engine._decorator.ccclass(`oam.test.Probe${probes++}`)(
      probeBody(engine.Component as unknown as new () => object, trace),
    ) as never,
  attach: (node) => (engine.director.getScene() as unknown as { addChild(n: unknown): void }).addChild(node),
  endFrame: () => frame(),
};

const DOUBLE: Host = {
  name: 'double',
  newNode: (name) => {
    const node = new double.Node(name);
    node.active = false;
    return node as unknown as NodeLike;
  },
  probe: (trace) => probeBody(double.Component as unknown as new () => object, trace) as never,
  attach: (node) => {
    node.active = true;
  },
  endFrame: () => double.tick(),
};

function events(host: Host): unknown[] {
  const trace: unknown[] = [];
  const node = host.newNode('events');
  host.attach(node);
  const owner = { tag: 'owner' };
  const heard = (...args: unknown[]) => trace.push(['heard', args.length]);
  node.on('twice', heard, owner);
  node.on('twice', heard, owner); // ignored
  node.emit('twice', 1);
  node.off('twice', heard); // no target: the listener registered with one stays
  node.emit('twice', 2);
  node.off('twice', heard, owner);
  node.emit('twice', 3);
  node.on('many', heard);
  node.emit('many', 1, 2, 3, 4, 5, 6, 7); // 5 arguments arrive, always (undefined when not given)
  const doomed = host.newNode('doomed');
  host.attach(doomed);
  node.on('gone', () => trace.push('listener of a destroyed target'), doomed);
  doomed.destroy();
  host.endFrame();
  trace.push(['registered before the emit', node.hasEventListener('gone')]);
  node.emit('gone');
  trace.push(['registered after the emit', node.hasEventListener('gone')]);
  node.off('many');
  trace.push(['off(type) removes all', node.hasEventListener('many')]);
  return trace;
}

function lifecycle(host: Host): unknown[] {
  const trace: string[] = [];
  const Probe = host.probe(trace);
  const outside = host.newNode('outside');
  const early = outside.addComponent(Probe) as unknown as { enabledInHierarchy: boolean };
  trace.push(`added outside the scene, enabled in hierarchy: ${early.enabledInHierarchy}`);
  host.attach(outside);
  trace.push(`attached, enabled in hierarchy: ${early.enabledInHierarchy}`);
  host.endFrame();
  trace.push('frame');
  const inside = host.newNode('inside');
  host.attach(inside);
  const late = inside.addComponent(Probe) as unknown as { enabledInHierarchy: boolean };
  trace.push('added inside');
  host.endFrame();
  trace.push('frame');
  inside.active = false;
  trace.push(`deactivated, enabled in hierarchy: ${late.enabledInHierarchy}`);
  inside.active = true;
  trace.push(`reactivated, enabled in hierarchy: ${late.enabledInHierarchy}`);
  return trace;
}

function destroy(host: Host): unknown[] {
  const trace: unknown[] = [];
  const log: string[] = [];
  const Probe = host.probe(log);
  const node = host.newNode('destroyed');
  host.attach(node);
  const probe = node.addComponent(Probe) as { isValid: boolean } & Record<string, unknown>;
  host.endFrame();
  log.length = 0;
  node.destroy();
  trace.push(['after destroy()', log.slice(), probe.isValid, node.isValid]);
  host.endFrame();
  trace.push(['after the frame', log.slice(), probe.isValid, node.isValid]);
  trace.push(['fields', probe.list, probe.label, probe.count]);
  return trace;
}

describe('the cc double agrees with the real engine', () => {
  beforeEach(() => freshScene());
  test.each([
    ['event semantics', events],
    ['the lifecycle order', lifecycle],
    ['the deferred destroy and its field reset', destroy],
  ])('%s', (_name, scenario) => {
    const real = scenario(ENGINE);
    const stand = scenario(DOUBLE);
    expect(stand).toEqual(real);
    expect(real.length).toBeGreaterThanOrEqual(3);
  });
});
