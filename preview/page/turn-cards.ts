/** The cards of a conversation: NPC bubbles in the chat, each turn's steps and tool calls in the inspector. */
import { element } from './dom';
import { compactJson, turnTotals } from './format';
import type { Card } from './page-ui';
import type { PreviewSession } from './preview-session';
import type { StepView, ToolView, TurnView } from './turn-view';

/**
 * A conversation as the page shows it: each turn's bubbles in the chat and its steps and tool calls
 * in the inspector, each drawn once and then updated from its view as the turn streams.
 */
export class TurnCards {
  private readonly cards = new Map<string, Card>();
  private readonly bubbles = new Map<TurnView, Card>();

  constructor(
    private readonly chat: HTMLElement,
    private readonly steps: HTMLElement,
  ) {
    // The waiting bubble's clock ticks while a turn runs.
    setInterval(() => {
      for (const [view, card] of this.bubbles) if (!view.done && !view.line) card.update();
    }, 1000);
  }

  /** Forgets every card (a new conversation starts). */
  clear(): void {
    this.cards.clear();
    this.bubbles.clear();
  }

  render(view: TurnView, current: PreviewSession): void {
    let bubble = this.bubbles.get(view);
    if (!bubble) {
      this.chat.append(
        element(
          'div',
          { class: 'msg player' },
          element('div', { class: 'who' }, 'You'),
          element('div', { class: 'text' }, view.player),
        ),
      );
      bubble = npcTurnCard(view, current);
      this.bubbles.set(view, bubble);
      this.chat.append(bubble.root);
    }
    bubble.update();
    this.chat.scrollTop = this.chat.scrollHeight;

    const turnNumber = current.turns.indexOf(view) + 1;
    const groupKey = `turn:${turnNumber}`;
    let group = this.cards.get(groupKey);
    if (!group) {
      group = turnGroup(view, turnNumber);
      this.cards.set(groupKey, group);
      this.steps.prepend(group.root);
    }
    group.update();
    const list = group.root.querySelector('.items') as HTMLElement;
    for (const key of view.timeline) {
      const cardKey = `${groupKey}/${key}`;
      let card = this.cards.get(cardKey);
      if (!card) {
        card = key.startsWith('step:')
          ? stepCard(view.steps[Number(key.slice(5)) - 1])
          : toolCard(view.tools.find((candidate) => `tool:${candidate.id}` === key) as ToolView, current);
        this.cards.set(cardKey, card);
        list.append(card.root);
      }
      card.update();
    }
  }
}

/** The NPC's first line as a chat bubble (its greeting). */
export function npcGreeting(name: string, line: string, emotion: string): HTMLElement {
  return element(
    'div',
    { class: 'msg npc' },
    element('div', { class: 'who' }, name, element('span', { class: `emotion e-${emotion}` }, emotion)),
    element('div', { class: 'text' }, line),
  );
}

function npcTurnCard(view: TurnView, current: PreviewSession): Card {
  const name = current.npc.persona.name;
  const emotion = element('span', { class: 'emotion' });
  const text = element('div', { class: 'text' });
  const notice = element('div', { class: 'notice', role: 'alert' });
  // A tool answered by hand is answered here too: the Chat tab is all a narrow panel shows.
  const asks = element('div', { class: 'chat-asks' });
  const askForms = new Map<string, HTMLElement>();
  const root = element(
    'div',
    { class: 'msg npc streaming' },
    element('div', { class: 'who' }, name, emotion),
    text,
    asks,
    notice,
  );
  return {
    root,
    update() {
      // A finished turn without an emotion (failed, cancelled) shows no badge, never "…".
      const emotionText = view.emotion ?? (view.done ? '' : '…');
      emotion.textContent = emotionText;
      emotion.className = `emotion e-${emotionText}`;
      emotion.hidden = emotionText === '';
      text.textContent = view.line || (view.done ? '' : waitingText(view));
      root.classList.toggle('streaming', !view.done);
      root.classList.toggle('fallback', view.isFallback);
      root.classList.toggle('failed', !!view.error);
      for (const tool of view.tools) {
        const waiting = tool.external && tool.status === 'waiting';
        let form = askForms.get(tool.id);
        if (waiting && !form) {
          form = chatAnswerForm(tool, current);
          askForms.set(tool.id, form);
          asks.append(form);
        }
        if (form) form.hidden = !waiting;
      }
      const message = view.error
        ? `The turn failed: ${view.error}`
        : view.fallbackReason
          ? `The model could not answer, so ${name} said a fallback line. ${view.fallbackReason}`
          : '';
      notice.textContent = message;
      notice.hidden = !message;
    },
  };
}

/** "take_order(item: ale) wants your answer: [____] [Answer]" inside the NPC's bubble. */
function chatAnswerForm(tool: ToolView, current: PreviewSession): HTMLElement {
  const input = element('input', {
    type: 'text',
    class: 'chat-answer-input',
    placeholder: 'Your answer (JSON or text)',
    'aria-label': `Answer ${tool.name} from the chat`,
  });
  const form = element(
    'form',
    { class: 'chat-answer' },
    element('code', {}, `${tool.name}(${compactJson(tool.args, 60)})`),
    input,
    element('button', { type: 'submit', class: 'primary small' }, 'Answer'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    current.answer(tool.id, input.value);
  });
  return form;
}

/** "… 12 s · step 2 · retry 1": how long the model has been at it, and where. */
function waitingText(view: TurnView): string {
  const seconds = Math.floor((Date.now() - view.startedAt) / 1000);
  const step = view.steps.length;
  const last = view.steps[step - 1];
  const parts = [`… ${seconds} s`];
  if (step > 1) parts.push(`step ${step}`);
  if (last && last.attempt > 0) parts.push(`retry ${last.attempt}`);
  if (view.tools.some((tool) => tool.status === 'waiting')) parts.push('waiting for your answer');
  return parts.join(' · ');
}

function turnGroup(view: TurnView, turnNumber: number): Card {
  const totals = element('span', { class: 'totals' });
  const root = element(
    'section',
    { class: 'turn-group' },
    element(
      'div',
      { class: 'turn-head' },
      element('span', { class: 'turn-no' }, `Turn ${turnNumber}`),
      element('q', {}, view.player),
      totals,
    ),
    element('div', { class: 'items' }),
  );
  return {
    root,
    update() {
      totals.textContent = turnTotals(view);
    },
  };
}

function stepCard(step: StepView): Card {
  const nums = element('span', { class: 'nums' });
  const output = element('code', { class: 'output' });
  const promptText = [
    step.systemInstruction && `── system instruction ──\n${step.systemInstruction}`,
    step.promptPrefix && `── stable prefix (cacheable) ──\n${step.promptPrefix}`,
    `── prompt ──\n${step.prompt}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const root = element(
    'div',
    { class: 'item step' },
    element(
      'div',
      { class: 'item-head' },
      element('span', { class: 'badge kind' }, step.kind),
      element('strong', {}, `Step ${step.number}`),
      step.isRepair ? element('span', { class: 'badge repair' }, 'repair') : null,
      step.attempt > 0 ? element('span', { class: 'badge retry' }, `retry ${step.attempt}`) : null,
      nums,
    ),
    element(
      'details',
      { class: 'prompt' },
      element('summary', {}, `Prompt sent · ${step.promptTokens} tokens (estimate)`),
      element('pre', {}, promptText),
    ),
    element('div', { class: 'out' }, element('span', { class: 'label' }, 'output'), output),
  );
  return {
    root,
    update() {
      const out = step.outputTokens !== undefined ? `${step.outputTokens} out` : step.failed ? 'failed' : 'running…';
      nums.textContent = `${step.promptTokens} in · ${out}`;
      root.classList.toggle('failed', !!step.failed);
      output.textContent = step.output !== undefined ? step.output.trim() : step.failed ? '(no answer)' : '…';
    },
  };
}

function toolCard(tool: ToolView, current: PreviewSession): Card {
  const status = element('span', { class: 'status' });
  const result = element('code', { class: 'result' });
  const resultRow = element('div', { class: 'out' }, element('span', { class: 'label' }, 'result'), result);
  const input = element('input', {
    type: 'text',
    class: 'answer-input',
    placeholder: 'Your answer (JSON or text), e.g. {"ok": true}',
    'aria-label': `Answer ${tool.name}`,
  });
  const form = element(
    'form',
    { class: 'answer' },
    input,
    element('button', { type: 'submit', class: 'primary small' }, 'Answer'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    current.answer(tool.id, input.value);
  });
  const root = element(
    'div',
    { class: 'item tool' },
    element(
      'div',
      { class: 'item-head' },
      element('span', { class: 'badge toolb' }, tool.external ? 'external tool' : 'tool'),
      element('strong', { class: 'tool-name' }, tool.name),
      status,
    ),
    element(
      'div',
      { class: 'out' },
      element('span', { class: 'label' }, 'args'),
      element('code', { class: 'args' }, compactJson(tool.args, 400)),
    ),
    resultRow,
    form,
  );
  return {
    root,
    update() {
      status.textContent = tool.status;
      status.className = `status s-${tool.status}`;
      result.textContent = tool.result ?? '';
      resultRow.hidden = tool.result === undefined;
      form.hidden = tool.status !== 'waiting';
      if (tool.status === 'waiting' && document.activeElement !== input) input.focus();
    },
  };
}
