/**
 * One choice a DecisionComponent offers the model ("attack": "Charge the player"), with the
 * weight and conditions that pick it where no model runs.
 */
import { _decorator, CCFloat } from 'cc';

const { ccclass, property } = _decorator;

@ccclass('oam.DecisionOptionEntry')
export class DecisionOptionEntry {
  @property({ tooltip: 'The id decide() returns (e.g. attack).' })
  id = '';

  @property({ multiline: true, tooltip: 'What this option means, for the model.' })
  description = '';

  @property({
    type: CCFloat,
    min: 0,
    tooltip:
      'Where no model runs (a shipped build on a device without one): how likely this option is, relative to the others.',
  })
  weight = 1;

  @property({
    tooltip:
      'Where no model runs: picked only while these facts hold, as JSON: {"enemy.hp": {"max": 30}, "alarm": false} (empty: always).',
  })
  when = '';
}
