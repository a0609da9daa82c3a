/**
 * Which of a bank's intents a player's line means, by its words alone: each intent's example
 * lines are cut into word stems, a stem weighs more the fewer intents use it (idf), and the line
 * goes to the intent whose best example shares the most weight with it (cosine over weighted
 * stem sets). No model and no vocabulary file: it runs on any device in well under a millisecond
 * for a bank of a few hundred examples. Below `threshold` no intent is claimed.
 */

/** Words that say nothing about what a player wants. */
const STOP = new Set(
  (
    'a an the and or but so of to in on at by for with from as is are was were be been am do does did ' +
    'i me my you your we our it its this that these those there here some any just please really very ' +
    'can could would will shall should may might must have has had get got oh well hey then than too'
  ).split(' '),
);

/**
 * Everyday words that mean the same to a character, read as one: a small, general table (no
 * game's items), so a bank's examples need not list every way to say goodbye.
 */
const WORD_GROUPS: Record<string, string[]> = {
  hello: ['hi', 'hey', 'hiya', 'hullo', 'greeting', 'howdy', 'morning', 'evening', 'afternoon'],
  bye: ['goodbye', 'farewell', 'goodnight', 'leave', 'leaving', 'off', 'later', 'around'],
  thank: ['thanks', 'thankyou', 'obliged', 'grateful', 'appreciate', 'appreciated', 'cheer'],
  food: ['eat', 'cook', 'cooking', 'dish', 'meal', 'dinner', 'supper', 'hungry', 'starving', 'serve', 'menu'],
  drink: ['beer', 'pint', 'mug', 'thirsty'],
  room: ['bed', 'sleep', 'lodging', 'stay', 'rent', 'night'],
  rumour: ['rumor', 'news', 'gossip', 'whisper', 'whispering', 'heard', 'hear', 'latest'],
  inn: ['tavern', 'pub', 'place', 'establishment'],
  weapon: ['sword', 'blade', 'axe', 'armour', 'armor', 'shield'],
  smith: ['blacksmith', 'smithy', 'forge', 'mend', 'fix', 'repair'],
  road: ['way', 'route', 'path', 'travel', 'journey', 'north', 'south', 'east', 'west', 'bridge'],
  bad: ['awful', 'terrible', 'horrible', 'disgusting', 'dishwater', 'stink', 'worst', 'hate', 'rude', 'vile'],
  busy: ['crowded', 'quiet', 'lively', 'business'],
};
const CANONICAL = new Map<string, string>();
for (const [canonical, words] of Object.entries(WORD_GROUPS))
  for (const word of words) if (!CANONICAL.has(word)) CANONICAL.set(word, canonical);

/** A rough stem: enough that "ales", "ale" and "ale's" meet, "ordering" and "order" too. */
function stem(word: string): string {
  let out = word.replace(/'s$/, '').replace(/'/g, '');
  if (out.length > 5 && out.endsWith('ing')) out = out.slice(0, -3);
  else if (out.length > 4 && out.endsWith('ed')) out = out.slice(0, -2);
  else if (out.length > 4 && out.endsWith('ies')) out = `${out.slice(0, -3)}y`;
  else if (out.length > 3 && out.endsWith('es') && /(sh|ch|x|ss)es$/.test(out)) out = out.slice(0, -2);
  else if (out.length > 3 && out.endsWith('s') && !out.endsWith('ss')) out = out.slice(0, -1);
  return out;
}

export function stems(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9']+/g) ?? [];
  const out: string[] = [];
  for (const word of words) {
    if (STOP.has(word)) continue;
    const root = CANONICAL.get(word) ?? CANONICAL.get(stem(word)) ?? stem(word);
    if (root && out.indexOf(root) < 0) out.push(root);
  }
  return out;
}

export interface IntentMatch {
  intent: string;
  score: number;
}

export class IntentMatcher {
  private readonly examples: Array<{ intent: string; stems: string[] }> = [];
  private readonly idf = new Map<string, number>();

  constructor(
    intents: Record<string, readonly string[]>,
    private readonly threshold = 0.3,
  ) {
    const intentsOf = new Map<string, Set<string>>();
    for (const [intent, lines] of Object.entries(intents)) {
      for (const line of lines) {
        const cut = stems(line);
        if (cut.length === 0) continue;
        this.examples.push({ intent, stems: cut });
        for (const root of cut) {
          const seen = intentsOf.get(root) ?? new Set<string>();
          seen.add(intent);
          intentsOf.set(root, seen);
        }
      }
    }
    const count = Object.keys(intents).length;
    for (const [root, seen] of intentsOf) this.idf.set(root, Math.log(1 + count / seen.size));
  }

  /** The best intent and its score (0…1), or undefined below the threshold. */
  match(line: string): IntentMatch | undefined {
    const cut = stems(line);
    if (cut.length === 0) return undefined;
    // A word no example has still counts against a match, as much as the rarest known word.
    const unknown = Math.log(1 + Math.max(1, this.examples.length));
    const weight = (root: string) => this.idf.get(root) ?? unknown;
    const norm = (list: string[]) => Math.sqrt(list.reduce((sum, root) => sum + weight(root) ** 2, 0));
    const lineNorm = norm(cut);
    let best: IntentMatch | undefined;
    for (const example of this.examples) {
      let shared = 0;
      for (const root of example.stems) if (cut.indexOf(root) >= 0) shared += weight(root) ** 2;
      if (shared === 0) continue;
      const score = shared / (lineNorm * norm(example.stems));
      if (!best || score > best.score) best = { intent: example.intent, score };
    }
    return best && best.score >= this.threshold ? best : undefined;
  }
}
