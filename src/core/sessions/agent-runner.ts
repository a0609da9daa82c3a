/**
 * Sessions by id, the model of ML Kit's genai-agent `AgentRunner`: a host (the JSON-RPC
 * bridge, a game with many short-lived conversations) asks for a session by id and runs turns
 * on it, without keeping Agent objects itself. The runner is bounded: when it is full it evicts
 * the least recently used session that is not running a turn (or refuses, when asked), so a
 * game that keeps creating ids cannot grow memory without end. Each session is one Agent, so
 * its turns keep the Agent's guarantees: queued in order, atomic, nothing kept on failure.
 */
import { AgentError } from '../../contract/errors';
import type { LanguageModel } from '../../contract/language-model';
import { Agent, AgentRun, type AgentOptions, type AgentResponse, type RunOptions } from '../agent';
import { checkSessionId } from './session-id';
import { resolveTurnLimit, roundsWithin, runWithinLimit, type ResolvedTurnLimit, type TurnLimit } from './turn-limit';

export type WhenFull = 'evict-oldest' | 'refuse';

export interface AgentRunnerOptions extends TurnLimit {
  model: LanguageModel;
  /** What every session starts with (instructions, tools, config); a session's own options go over it. */
  agent?: AgentOptions;
  /** Sessions kept at once (the protocol's default, 64). */
  maxSessions?: number;
  /** When full: evict the least recently used idle session (default), or refuse with session_limit. */
  whenFull?: WhenFull;
}

/** A session's own settings over the runner's: its Agent options and its turn limit. */
export interface SessionOptions extends AgentOptions, TurnLimit {}

export const DEFAULT_MAX_SESSIONS = 64;

/** Numbers the ids of runs refused before they started. */
let refusedRuns = 0;

/** What a session asks of its runner: to be marked as used, and to be let go. */
interface SessionHost {
  touch(session: AgentSession): void;
  release(session: AgentSession): void;
}

/** One conversation by id: an Agent with a history, and its place in the runner. */
export class AgentSession {
  readonly id: string;
  /** The session's agent, for its history, transcript, instructions and tools (`session.agent.history`). */
  readonly agent: Agent;
  private readonly limit: ResolvedTurnLimit | undefined;
  private readonly host: SessionHost;
  private ended: 'deleted' | 'closed' | undefined;
  private active = 0;

  /** @internal Made by AgentRunner.getOrCreate. */
  constructor(setup: { id: string; agent: Agent; limit: ResolvedTurnLimit | undefined; host: SessionHost }) {
    this.id = setup.id;
    this.agent = setup.agent;
    this.limit = setup.limit;
    this.host = setup.host;
  }

  /** Starts a turn (queued behind a running one) and returns its run at once. */
  run(prompt: string, options: RunOptions = {}): AgentRun {
    if (this.ended) {
      return failedRun(
        new AgentError(
          'invalid_request',
          `Session "${this.id}" was ${this.ended}; get a new one with getOrCreate("${this.id}").`,
        ),
      );
    }
    this.host.touch(this);
    const run = runWithinLimit({ agent: this.agent, prompt, options, limit: this.limit });
    // Counted here rather than read from agent.isResponding, which stays true for a few
    // microtasks after a turn's response is out: a session whose turn just ended is idle.
    this.active++;
    const done = () => {
      this.active--;
    };
    run.on('completed', done);
    run.on('error', done);
    return run;
  }

  /** Runs a turn to completion; external tools are answered by `options.externalTools`. */
  respond(prompt: string, options: RunOptions = {}): Promise<AgentResponse> {
    return this.run(prompt, options).response(options.externalTools);
  }

  /** True while a turn started here (or through the runner) is queued or running. */
  get isBusy(): boolean {
    return this.active > 0;
  }

  /** False once deleted or closed. */
  get isOpen(): boolean {
    return this.ended === undefined;
  }

  /** Synchronous eviction: running and queued turns are cancelled (they keep nothing), the id is free at once. */
  delete(): void {
    if (this.ended) return;
    this.ended = 'deleted';
    this.host.release(this);
    this.agent.close();
  }

  /**
   * Asynchronous eviction: the id is free at once and no new turn starts here, but turns
   * already queued finish first; the promise resolves when the history is gone.
   */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = 'closed';
    this.host.release(this);
    await this.agent.waitUntilIdle();
    this.agent.close();
  }

  /** @internal The runner was closed: like delete, without asking the runner again. */
  end(): void {
    if (this.ended) return;
    this.ended = 'deleted';
    this.agent.close();
  }
}

export class AgentRunner {
  readonly model: LanguageModel;
  readonly maxSessions: number;
  readonly whenFull: WhenFull;
  private readonly defaults: AgentOptions;
  private readonly limit: ResolvedTurnLimit | undefined;
  /** Sessions in order of last use, least recent first (a Map keeps insertion order). */
  private readonly sessions = new Map<string, AgentSession>();
  /** Agents of single turns still running, so close() can cancel them. */
  private readonly singles = new Set<Agent>();
  private closed = false;
  private readonly host: SessionHost = {
    touch: (session) => this.touch(session),
    release: (session) => this.release(session),
  };

  constructor(options: AgentRunnerOptions) {
    if (!options || typeof options !== 'object')
      throw new AgentError(
        'invalid_request',
        'AgentRunner needs options: { model, agent?, maxSessions?, whenFull?, maxTurns? }.',
      );
    const { model, agent = {}, maxSessions = DEFAULT_MAX_SESSIONS, whenFull = 'evict-oldest' } = options;
    if (!model || typeof model.generate !== 'function') {
      throw new AgentError(
        'invalid_request',
        'AgentRunner needs a LanguageModel (an object with generate()) as options.model.',
      );
    }
    if (!(Number.isInteger(maxSessions) && maxSessions >= 1)) {
      throw new AgentError('invalid_request', `maxSessions must be a whole number ≥ 1; got ${String(maxSessions)}.`);
    }
    if (whenFull !== 'evict-oldest' && whenFull !== 'refuse') {
      throw new AgentError(
        'invalid_request',
        `whenFull must be "evict-oldest" or "refuse"; got ${JSON.stringify(whenFull)}.`,
      );
    }
    this.model = model;
    this.maxSessions = maxSessions;
    this.whenFull = whenFull;
    this.defaults = agent;
    this.limit = resolveTurnLimit(options);
    // Bad defaults (a tool set with a duplicate name, an invalid config) fail here, not at the first session.
    new Agent(model, agent).close();
  }

  /**
   * The session with this id, made now if there is none (with `options` over the runner's
   * defaults; an existing session keeps its own and `options` are ignored). A new session in
   * a full runner evicts the least recently used idle one, or fails: `busy` when every session
   * is running a turn, `invalid_request` with details `{reason: 'session_limit', limit}` when
   * whenFull is 'refuse'.
   */
  getOrCreate(id: string, options: SessionOptions = {}): AgentSession {
    this.checkOpen();
    checkSessionId(id);
    const existing = this.sessions.get(id);
    if (existing) {
      this.touch(existing);
      return existing;
    }
    // Built first: bad options fail before anyone is evicted.
    const session = this.create(id, options);
    try {
      this.makeRoom(id);
    } catch (error) {
      session.end();
      throw error;
    }
    this.sessions.set(id, session);
    return session;
  }

  has(id: string): boolean {
    this.checkOpen();
    return this.sessions.has(id);
  }

  /** The ids, least recently used first. */
  ids(): string[] {
    this.checkOpen();
    return Array.from(this.sessions.keys());
  }

  get size(): number {
    return this.sessions.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Gets or creates the session, then starts a turn on it; any problem fails the run, before a model call. */
  run(id: string, prompt: string, options: RunOptions = {}): AgentRun {
    let session: AgentSession;
    try {
      session = this.getOrCreate(id);
    } catch (error) {
      return failedRun(AgentError.from(error, 'invalid_request'));
    }
    return session.run(prompt, options);
  }

  respond(id: string, prompt: string, options: RunOptions = {}): Promise<AgentResponse> {
    return this.run(id, prompt, options).response(options.externalTools);
  }

  /**
   * One turn that keeps no history: a fresh agent with the runner's defaults (and `setup` over
   * them), gone when the turn ends. It takes no session slot.
   */
  runOnce(prompt: string, options: RunOptions = {}, setup: SessionOptions = {}): AgentRun {
    let agent: Agent;
    let limit: ResolvedTurnLimit | undefined;
    try {
      this.checkOpen();
      ({ agent, limit } = this.build(setup));
    } catch (error) {
      return failedRun(AgentError.from(error, 'invalid_request'));
    }
    this.singles.add(agent);
    const run = runWithinLimit({ agent, prompt, options, limit });
    const done = () => {
      this.singles.delete(agent);
      agent.close();
    };
    run.on('completed', done);
    run.on('error', done);
    return run;
  }

  respondOnce(prompt: string, options: RunOptions = {}, setup: SessionOptions = {}): Promise<AgentResponse> {
    return this.runOnce(prompt, options, setup).response(options.externalTools);
  }

  /** Synchronous eviction of one session (its running turn is cancelled); false when there was none. */
  delete(id: string): boolean {
    this.checkOpen();
    const session = this.sessions.get(id);
    if (!session) return false;
    session.delete();
    return true;
  }

  /**
   * Clears every session's history and context note (instructions and tools stay), each after
   * its running turns finish, as ML Kit's "clear all in-memory conversation histories".
   */
  async clear(): Promise<void> {
    this.checkOpen();
    await Promise.all(Array.from(this.sessions.values(), (session) => session.agent.reset()));
  }

  /** Cancels everything and lets every session go; later calls fail with invalid_request. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const sessions = Array.from(this.sessions.values());
    this.sessions.clear();
    for (const session of sessions) session.end();
    for (const agent of Array.from(this.singles)) agent.close();
    this.singles.clear();
  }

  // ---- internals ----------------------------------------------------------------------------

  private checkOpen(): void {
    if (this.closed) throw new AgentError('invalid_request', 'This AgentRunner was closed; make a new one.');
  }

  private create(id: string, options: SessionOptions): AgentSession {
    const { agent, limit } = this.build(options);
    return new AgentSession({ id, agent, limit, host: this.host });
  }

  /** An agent with the defaults and `options` over them, under its turn limit. */
  private build(options: SessionOptions): { agent: Agent; limit: ResolvedTurnLimit | undefined } {
    if (!options || typeof options !== 'object')
      throw new AgentError('invalid_request', 'Session options must be an object.');
    const { maxTurns, onMaxTurns, config, ...own } = options;
    const limit = resolveTurnLimit({ maxTurns, onMaxTurns }, this.limit);
    const given = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined));
    const agent = new Agent(this.model, { ...this.defaults, ...given });
    if (config !== undefined) agent.configure(config);
    const rounds = roundsWithin(limit, agent);
    if (rounds) agent.configure(rounds);
    return { agent, limit };
  }

  /** Frees a slot for `id` when the runner is full, or says why it cannot. */
  private makeRoom(id: string): void {
    if (this.sessions.size < this.maxSessions) return;
    if (this.whenFull === 'refuse') {
      throw new AgentError(
        'invalid_request',
        `This AgentRunner holds at most ${this.maxSessions} sessions and is full, ` +
          `so "${id}" was not created; delete one first.`,
        {
          details: { reason: 'session_limit', limit: this.maxSessions },
        },
      );
    }
    for (const session of this.sessions.values()) {
      if (!session.isBusy) {
        session.delete();
        return;
      }
    }
    throw new AgentError(
      'busy',
      `All ${this.maxSessions} sessions are running a turn, so none can be evicted for "${id}"; ` +
        'try again when one finishes, or raise maxSessions.',
      {
        details: { reason: 'all_sessions_busy', limit: this.maxSessions },
      },
    );
  }

  private touch(session: AgentSession): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    this.sessions.set(session.id, session);
  }

  private release(session: AgentSession): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
  }
}

/** A run that fails a microtask later, as the Agent's own runs do on bad input, so listeners attached now hear it. */
function failedRun(error: AgentError): AgentRun {
  const run = new AgentRun(`run_refused_${++refusedRuns}`);
  Promise.resolve().then(() => run.fail(error));
  return run;
}
