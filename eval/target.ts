/**
 * What the eval talks to, and the one kind of failure that stops it before the first scenario:
 * nothing answers at the URL, or the browser has no built-in model. That failure's message says
 * what to start or install, since the user cannot act on a stack trace.
 */
import type { LanguageModel } from '../src';
import type { EvalTarget } from './report';

export interface OpenedTarget {
  model: LanguageModel;
  info: EvalTarget;
  close(): Promise<void>;
}

/** The target cannot be used; the message is for the user, in full sentences. */
export class TargetUnavailable extends Error {}
