/**
 * The 16 emotions an NPC may show, and lenient reading of whatever a small model writes for
 * one ("[Happy]", "*smiles happily*", "furious!") so a stray word never breaks a turn.
 */
export type Emotion =
  | 'neutral'
  | 'happy'
  | 'sad'
  | 'angry'
  | 'afraid'
  | 'surprised'
  | 'suspicious'
  | 'amused'
  | 'disgusted'
  | 'excited'
  | 'curious'
  | 'confused'
  | 'worried'
  | 'grateful'
  | 'annoyed'
  | 'proud';

export const EMOTIONS: readonly Emotion[] = [
  'neutral',
  'happy',
  'sad',
  'angry',
  'afraid',
  'surprised',
  'suspicious',
  'amused',
  'disgusted',
  'excited',
  'curious',
  'confused',
  'worried',
  'grateful',
  'annoyed',
  'proud',
];

export function isEmotion(value: unknown): value is Emotion {
  return typeof value === 'string' && (EMOTIONS as readonly string[]).indexOf(value) >= 0;
}

/** Words models and designers use for an emotion, lower case, mapped to the emotion they mean. */
const SYNONYMS: Record<string, Emotion> = {
  // neutral
  calm: 'neutral',
  indifferent: 'neutral',
  none: 'neutral',
  normal: 'neutral',
  // happy
  joyful: 'happy',
  joy: 'happy',
  cheerful: 'happy',
  glad: 'happy',
  pleased: 'happy',
  content: 'happy',
  delighted: 'happy',
  happily: 'happy',
  smiling: 'happy',
  smiles: 'happy',
  smile: 'happy',
  warm: 'happy',
  friendly: 'happy',
  happiness: 'happy',
  jolly: 'happy',
  // sad
  sorrowful: 'sad',
  unhappy: 'sad',
  sadly: 'sad',
  sadness: 'sad',
  upset: 'sad',
  melancholy: 'sad',
  gloomy: 'sad',
  depressed: 'sad',
  crying: 'sad',
  tearful: 'sad',
  sorrow: 'sad',
  grief: 'sad',
  grieving: 'sad',
  // angry
  mad: 'angry',
  furious: 'angry',
  angrily: 'angry',
  anger: 'angry',
  enraged: 'angry',
  rage: 'angry',
  livid: 'angry',
  hostile: 'angry',
  outraged: 'angry',
  // afraid
  scared: 'afraid',
  frightened: 'afraid',
  fear: 'afraid',
  fearful: 'afraid',
  terrified: 'afraid',
  panicked: 'afraid',
  panic: 'afraid',
  // surprised
  shocked: 'surprised',
  astonished: 'surprised',
  amazed: 'surprised',
  surprise: 'surprised',
  startled: 'surprised',
  stunned: 'surprised',
  // suspicious
  wary: 'suspicious',
  distrustful: 'suspicious',
  suspicion: 'suspicious',
  skeptical: 'suspicious',
  sceptical: 'suspicious',
  doubtful: 'suspicious',
  guarded: 'suspicious',
  suspiciously: 'suspicious',
  // amused
  amusement: 'amused',
  laughing: 'amused',
  laughs: 'amused',
  chuckles: 'amused',
  chuckling: 'amused',
  playful: 'amused',
  teasing: 'amused',
  funny: 'amused',
  grins: 'amused',
  grinning: 'amused',
  // disgusted
  disgust: 'disgusted',
  revolted: 'disgusted',
  repulsed: 'disgusted',
  grossed: 'disgusted',
  // excited
  thrilled: 'excited',
  eager: 'excited',
  excitement: 'excited',
  enthusiastic: 'excited',
  elated: 'excited',
  // curious
  intrigued: 'curious',
  interested: 'curious',
  curiously: 'curious',
  curiosity: 'curious',
  inquisitive: 'curious',
  // confused
  puzzled: 'confused',
  confusion: 'confused',
  baffled: 'confused',
  perplexed: 'confused',
  bewildered: 'confused',
  // worried
  nervous: 'worried',
  anxious: 'worried',
  concerned: 'worried',
  worry: 'worried',
  nervously: 'worried',
  uneasy: 'worried',
  tense: 'worried',
  // grateful
  thankful: 'grateful',
  gratitude: 'grateful',
  appreciative: 'grateful',
  thanks: 'grateful',
  // annoyed
  gruff: 'annoyed',
  grumpy: 'annoyed',
  irritated: 'annoyed',
  annoyance: 'annoyed',
  frustrated: 'annoyed',
  impatient: 'annoyed',
  irked: 'annoyed',
  cranky: 'annoyed',
  sighs: 'annoyed',
  // proud
  smug: 'proud',
  pride: 'proud',
  confident: 'proud',
  proudly: 'proud',
  boastful: 'proud',
  haughty: 'proud',
};

/**
 * When an NPC may only show some emotions, the closest stand-ins for each one, best first.
 * Lets an innkeeper limited to happy/sad/neutral still look "happy" when the model says excited.
 */
const NEIGHBOURS: Record<Emotion, readonly Emotion[]> = {
  neutral: [],
  happy: ['amused', 'excited', 'grateful', 'proud'],
  sad: ['worried', 'afraid', 'disgusted'],
  angry: ['annoyed', 'disgusted', 'suspicious'],
  afraid: ['worried', 'surprised', 'sad'],
  surprised: ['excited', 'confused', 'curious', 'afraid'],
  suspicious: ['annoyed', 'worried', 'curious', 'confused'],
  amused: ['happy', 'excited', 'proud'],
  disgusted: ['angry', 'annoyed', 'sad'],
  excited: ['happy', 'surprised', 'curious', 'amused'],
  curious: ['surprised', 'confused', 'excited', 'suspicious'],
  confused: ['surprised', 'curious', 'worried'],
  worried: ['afraid', 'sad', 'suspicious', 'confused'],
  grateful: ['happy', 'amused', 'proud'],
  annoyed: ['angry', 'disgusted', 'suspicious', 'sad'],
  proud: ['happy', 'amused', 'excited', 'grateful'],
};

function lookupWord(word: string): Emotion | undefined {
  if (isEmotion(word)) return word;
  return Object.prototype.hasOwnProperty.call(SYNONYMS, word) ? SYNONYMS[word] : undefined;
}

/** The emotion a piece of text names, or undefined when no word in it names one. */
function readEmotion(text: string): Emotion | undefined {
  const words = text.toLowerCase().match(/[a-z]+/g);
  if (!words) return undefined;
  // The first word that names an emotion wins: "very happy", "*smiles happily*".
  for (const word of words) {
    const emotion = lookupWord(word);
    if (emotion) return emotion;
  }
  return undefined;
}

/** The nearest emotion the NPC may show, or undefined when none of the stand-ins are allowed. */
function nearestAllowed(emotion: Emotion, allowed: readonly Emotion[]): Emotion | undefined {
  if (allowed.indexOf(emotion) >= 0) return emotion;
  for (const neighbour of NEIGHBOURS[emotion]) {
    if (allowed.indexOf(neighbour) >= 0) return neighbour;
  }
  return undefined;
}

/**
 * Reads an emotion leniently: case, punctuation, brackets and surrounding words are ignored and
 * about 100 synonyms are understood. A value outside `allowed` becomes the nearest allowed
 * emotion, else `fallback` (default neutral). The result is always one of `allowed` when
 * `allowed` is non-empty: a fallback that is not allowed gives way to neutral or the first allowed.
 */
export function matchEmotion(text: unknown, allowed?: readonly Emotion[], fallback: Emotion = 'neutral'): Emotion {
  const permitted = allowed && allowed.length > 0 ? allowed : EMOTIONS;
  const found = typeof text === 'string' ? readEmotion(text) : undefined;
  const near = found ? nearestAllowed(found, permitted) : undefined;
  if (near) return near;
  if (permitted.indexOf(fallback) >= 0) return fallback;
  return permitted.indexOf('neutral') >= 0 ? 'neutral' : permitted[0];
}

export interface EmotionTag {
  /** The tagged emotion, or undefined when the text has no leading tag. */
  emotion: Emotion | undefined;
  /** The text after the tag, trimmed. */
  rest: string;
}

/** `[happy]`, `(happy)`, `*happy*` or `<happy>` at the very start, at most 30 characters inside. */
const TAG_PATTERN = /^\s*(?:\[([^[\]\n]{1,30})\]|\(([^()\n]{1,30})\)|\*([^*\n]{1,30})\*|<([^<>\n]{1,30})>)\s*/;

/**
 * Reads the leading emotion tag of a text reply (`[happy] Welcome!`). Square brackets always
 * count as a tag; the other bracket styles only when the word inside names an emotion, so a
 * reply that opens with an aside like `(sighs) Fine.` keeps its words unless "sighs" maps.
 * An unknown word in square brackets is removed and read as `fallback`.
 */
export function parseEmotionTag(text: string, allowed?: readonly Emotion[], fallback: Emotion = 'neutral'): EmotionTag {
  const source = typeof text === 'string' ? text : '';
  const match = TAG_PATTERN.exec(source);
  if (!match) return { emotion: undefined, rest: source.trim() };
  const square = match[1];
  const inner = square ?? match[2] ?? match[3] ?? match[4] ?? '';
  if (square === undefined && readEmotion(inner) === undefined) {
    return { emotion: undefined, rest: source.trim() };
  }
  return { emotion: matchEmotion(inner, allowed, fallback), rest: source.slice(match[0].length).trim() };
}

/**
 * True while a streamed text reply may still be writing its leading `[emotion]` tag, so the
 * caller holds the text back instead of showing "[hap" to the player.
 */
export function isEmotionTagPending(text: string): boolean {
  const trimmed = text.replace(/^\s+/, '');
  if (trimmed.length === 0) return true;
  if (trimmed[0] !== '[') return false;
  const close = trimmed.indexOf(']');
  return close < 0 && trimmed.length <= 31 && trimmed.indexOf('\n') < 0;
}
