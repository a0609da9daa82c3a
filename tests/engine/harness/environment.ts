/**
 * The engine's own jest environment, plus a watch on the real process for promises rejected
 * with nobody handling them: inside a test file `process.on('unhandledRejection')` never
 * fires (jest gives the file a sandboxed process), so the guard (harness/guards.ts) reads what
 * this collects.
 */
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore: the engine's environment, beside this suite in the engine tree (not in this repository)
import EngineEnvironment from '../../test-environment';

export default class OamEnvironment extends EngineEnvironment {
  private readonly unhandled: string[] = [];
  private readonly onUnhandled = (reason: unknown) => {
    this.unhandled.push(reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason));
  };

  async setup(): Promise<void> {
    await super.setup();
    process.on('unhandledRejection', this.onUnhandled);
    (this as unknown as { global: Record<string, unknown> }).global.__oamUnhandled = this.unhandled;
  }

  async teardown(): Promise<void> {
    process.off('unhandledRejection', this.onUnhandled);
    await super.teardown();
  }
}
