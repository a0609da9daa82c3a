/**
 * Turns the growing reply into the player's view: the emotion once it is known, then line
 * deltas (or a reset when the text is rewritten) that always add up to the line shown.
 */
import type { Emotion } from '../emotion';
import { LineCleaner } from '../persona';
import type { NPCEvent } from './dialogue';

export class LineTracker {
  private shown = '';
  private emotion: Emotion | undefined;
  private cleaner: LineCleaner;
  private raw = '';

  constructor(
    private readonly names: string[],
    private readonly emit: (e: NPCEvent) => void,
  ) {
    this.cleaner = new LineCleaner(names);
  }

  setEmotion(emotion: Emotion): void {
    if (emotion === this.emotion) return;
    this.emotion = emotion;
    this.emit({ type: 'emotion', emotion });
  }

  get currentEmotion(): Emotion | undefined {
    return this.emotion;
  }

  /** The raw line so far (label and quotes not yet removed); it usually only grows. */
  setRawLine(raw: string): void {
    if (raw.startsWith(this.raw)) {
      this.cleaner.push(raw.slice(this.raw.length));
    } else {
      this.cleaner = new LineCleaner(this.names);
      this.cleaner.push(raw);
    }
    this.raw = raw;
    this.show(this.cleaner.text);
  }

  /** The final line: whatever is still held back is shown now. */
  finish(line: string): void {
    this.show(line);
  }

  /** Withdraws everything (a retry starts over). */
  reset(): void {
    this.raw = '';
    this.cleaner = new LineCleaner(this.names);
    if (this.shown !== '') {
      this.shown = '';
      this.emit({ type: 'line', delta: '', line: '', isReset: true });
    }
  }

  private show(line: string): void {
    if (line === this.shown) return;
    if (line.startsWith(this.shown)) {
      const delta = line.slice(this.shown.length);
      this.shown = line;
      this.emit({ type: 'line', delta, line, isReset: false });
    } else {
      this.shown = line;
      this.emit({ type: 'line', delta: line, line, isReset: true });
    }
  }
}
