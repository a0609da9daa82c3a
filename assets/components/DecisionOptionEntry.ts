/** One choice a DecisionComponent offers the model ("attack": "Charge the player"). */
import { _decorator } from 'cc';

const { ccclass, property } = _decorator;

@ccclass('oam.DecisionOptionEntry')
export class DecisionOptionEntry {
  @property({ tooltip: 'The id decide() returns (e.g. attack).' })
  id = '';

  @property({ multiline: true, tooltip: 'What this option means, for the model.' })
  description = '';
}
