export {
  transcriptFromJSON,
  transcriptToJSON,
  splitTurns,
  clone,
  checkEntry,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
} from './transcript';
export type { TranscriptData, TranscriptEntry } from './transcript';
