/**
 * Parse and stream time on long, hostile model outputs (issue: regexes re-run per chunk were
 * quadratic): a tool name padded with spaces, a reply of blank lines, a long inline reply read
 * chunk by chunk. Sizes double; linear code roughly doubles its time too.
 */
import { InlineReplyReader, parseEnvelope } from '../src/core/envelope';
import { cleanReplyText, ReplyTextStream } from '../src/core/prompt/reply-text';
import { PartialJsonReader } from '../src/core/json/partial-reader';
import { LineFirstReader } from '../src/core/envelope/line-first';

const SIZES = [10_000, 20_000, 40_000, 80_000];
const LABELS = ['User', 'Assistant'];

function ms(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const CASES: Array<{ name: string; run(n: number): void }> = [
  {
    name: 'envelope, spaces inside the tool name',
    run: (size) =>
      parseEnvelope(`{"tool": "take${' '.repeat(size)}order", "args": {}}`, {
        toolNames: ['take_order'],
        allowRespond: true,
      }),
  },
  {
    name: 'final reply clean-up, blank lines',
    run: (size) => cleanReplyText({ raw: `Hello${'\n'.repeat(size)}there`, labels: LABELS, final: true }),
  },
  {
    name: 'streamed reply clean-up, 200 chunks',
    run: (size) => {
      const reply = `Hello${'\n'.repeat(size)}there`;
      const stream = new ReplyTextStream({ labels: LABELS });
      for (let chunk = 1; chunk <= 200; chunk++) stream.push(reply.slice(0, Math.floor((reply.length * chunk) / 200)));
    },
  },
  {
    name: 'streamed words with calls, every 4 chars',
    run: (size) => {
      const line = 'Two (ales) [waves] for you. `take_order(item="ale")`\n';
      const reply = line.repeat(Math.ceil(size / line.length)).slice(0, size);
      const stream = new ReplyTextStream({ labels: LABELS, toolNames: ['take_order'] });
      for (let end = 4; end <= reply.length; end += 4) stream.push(reply.slice(0, end));
    },
  },
  {
    name: 'inline reply read every 4 characters',
    run: (size) => {
      const text = `{"reply": "${'a '.repeat(size / 2)}"}`;
      const reader = new InlineReplyReader([]);
      for (let end = 4; end <= text.length; end += 4) reader.push(text.slice(0, end));
    },
  },
  {
    name: 'structured partials read every 4 characters',
    run: (size) => {
      const text = `{"emotion": "happy", "line": "${'a '.repeat(size / 2)}"}`;
      const reader = new PartialJsonReader();
      for (let end = 4; end <= text.length; end += 4) reader.push(text.slice(0, end));
    },
  },
  {
    name: 'line-first words read every 4 characters',
    run: (size) => {
      const text = `${'a '.repeat(size / 2)}\n[happy]`;
      const reader = new LineFirstReader({ toolNames: ['remember_fact'], tagKey: 'emotion' });
      for (let end = 4; end <= text.length; end += 4) reader.push(text.slice(0, end));
    },
  },
];

export function benchLongOutputs(): void {
  console.log(
    '\nlong outputs: ms at ' + SIZES.map((size) => `${size / 1000}k`).join(' / ') + ' characters (median of 3)',
  );
  for (const bench of CASES) {
    bench.run(SIZES[0]); // warm-up: the first call pays the JIT
    const times = SIZES.map((size) => {
      const runs = [0, 1, 2].map(() => ms(() => bench.run(size))).sort((left, right) => left - right);
      return runs[1];
    });
    const growth = times[times.length - 1] / Math.max(times[0], 0.01);
    console.log(
      `  ${bench.name.padEnd(40)} ${times.map((time) => time.toFixed(1).padStart(7)).join(' ')}   80k/10k ${growth.toFixed(1)}× (linear ≈ 8×)`,
    );
  }
}
