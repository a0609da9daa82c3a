/**
 * The UI classes the tavern sample's scripts use, on top of the shared 'cc' test double
 * (tests/cocos/cc-double.ts, reused as it is): Label, Button, EditBox, ProgressBar, and
 * Component.scheduleOnce. A test maps 'cc' to both:
 *   jest.mock('cc', () => require('./cc-ui-double').cc, { virtual: true });
 */
import * as base from '../cocos/cc-double';

/** Component with scheduleOnce; callbacks wait until the test runs them. */
export class Component extends base.Component {
  readonly scheduled: Array<() => void> = [];

  scheduleOnce(callback: () => void, _delaySeconds?: number): void {
    this.scheduled.push(callback);
  }

  runScheduled(): void {
    for (const callback of this.scheduled.splice(0)) callback();
  }
}

/** Remembers every text it showed, so a test can see a line grow. */
export class Label extends Component {
  readonly history: string[] = [];
  private text = '';

  get string(): string {
    return this.text;
  }

  set string(value: string) {
    this.text = value;
    this.history.push(value);
  }
}

export class Button extends Component {
  interactable = true;
}

export class EditBox extends Component {
  string = '';
}

export class ProgressBar extends Component {
  progress = 0;
}

/** The module 'cc' as the sample's scripts see it. */
export const cc = { ...base, Component, Label, Button, EditBox, ProgressBar };
