/**
 * Server-sent events, decoded incrementally. Network chunks split events anywhere (mid-line,
 * between CR and LF), so the decoder keeps the unfinished tail and only returns whole events.
 */

export interface SseEvent {
  /** The `event:` field, `message` when absent. llama.cpp's bare `error:` lines arrive as `error`. */
  event: string;
  /** The `data:` lines of one event joined with newlines. */
  data: string;
}

export class SseDecoder {
  private buffer = '';
  private eventName = '';
  private dataLines: string[] = [];

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    for (;;) {
      const lineBreak = /\r\n|\r|\n/.exec(this.buffer);
      if (!lineBreak) break;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (lineBreak[0] === '\r' && lineBreak.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, lineBreak.index);
      this.buffer = this.buffer.slice(lineBreak.index + lineBreak[0].length);
      this.takeLine(line, out);
    }
    return out;
  }

  /** The stream ended: returns a last event that had no trailing blank line. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer !== '') {
      const rest = this.buffer.replace(/\r$/, '');
      this.buffer = '';
      this.takeLine(rest, out);
    }
    this.dispatch(out);
    return out;
  }

  private takeLine(line: string, out: SseEvent[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.charAt(0) === ':') return; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charAt(0) === ' ') value = value.slice(1);
    if (field === 'data') {
      this.dataLines.push(value);
    } else if (field === 'event') {
      this.eventName = value;
    } else if (field === 'error') {
      // llama.cpp reports failures mid-stream as `error: {json}` instead of a data line.
      this.eventName = 'error';
      this.dataLines.push(value);
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (this.dataLines.length > 0) {
      out.push({ event: this.eventName || 'message', data: this.dataLines.join('\n') });
    }
    this.dataLines = [];
    this.eventName = '';
  }
}
