/** The QA overlay's per-turn summary (summarizeTurn) of a recorded evening at Mira's, and of a failed turn. */
import { summarizeTurn, type RecordedTurn } from '../../src';
import { recordEvening } from './tavern-session';

describe('a recorded turn in a few lines', () => {
  test("who answered, each step's tokens and time, each call and how it ended, the line", async () => {
    const { bundle } = await recordEvening(['Evening!', 'Two ales, please.']);
    const order = summarizeTurn(bundle.turns[1], 1);
    expect(order[0]).toMatch(/^#2 "Two ales, please\." · stand-in · \d+ step\(s\) · /);
    // The stand-in counts no tokens: the figures are estimates, marked so.
    expect(order.filter((line) => /^ {2}\w+: ~\d+ prompt \+ ~\d+ out tokens, /.test(line)).length).toBe(
      bundle.turns[1].steps.length,
    );
    expect(order.some((line) => /^ {2}tool take_order\{.*"ale".*\} → ok/.test(line))).toBe(true);
    expect(order[order.length - 1]).toBe(`  → [${bundle.turns[1].emotion}] ${bundle.turns[1].line}`);
  });

  test("a failed turn says its error code, a refused call its reason, and the backend's own token counts show as counted", () => {
    const turn = {
      said: 'Open the vault.',
      answeredBy: 'gemini-nano',
      ms: 2400,
      steps: [
        {
          kind: 'decide',
          prompt: 'Player: Open the vault.',
          output: '{"tool":"open_vault"}',
          usage: { inputTokens: 412, outputTokens: 9 },
          ms: 1800,
          firstChunkMs: 700,
        },
      ],
      toolCalls: [{ name: 'open_vault', args: {}, refused: 'Only the captain may.', output: { kind: 'error' } }],
      error: { code: 'model_unavailable', message: 'Gemini Nano went away.' },
    } as unknown as RecordedTurn;
    expect(summarizeTurn(turn, 0)).toEqual([
      '#1 "Open the vault." · gemini-nano · 1 step(s) · 2.4 s',
      '  decide: 412 prompt + 9 out tokens, 1.8 s, first piece 700 ms',
      '  tool open_vault{} refused: Only the captain may.',
      '  turn failed: model_unavailable: Gemini Nano went away.',
    ]);
  });
});
