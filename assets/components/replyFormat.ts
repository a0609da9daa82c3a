/** How an NPC's reply is asked for (the Inspector's Reply Format): its index is what the core reads. */
import { Enum } from 'cc';

export enum ReplyFormat {
  Automatic,
  Structured,
  Text,
}
Enum(ReplyFormat);
