/** The player's side of Mira's evening, in order. */
export const EVENING: string[] = [
  "Evening! What's warm tonight?",
  'Two ales, please.',
  "How's business these days?",
  'You pour a fine ale, Mira. Thank you.',
  'Heard any rumours lately?',
  'Goodnight, Mira!',
];
