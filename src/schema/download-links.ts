/** Until when a document or plan id is valid (the links themselves: server/download-links.ts). */
import { endOfLondonDay } from '../register/london-day';

/** Ids are valid until the end of the register's day of issue (Europe/London). */
export function expiryOfIssue(issuedAt: Date): string {
  return endOfLondonDay(issuedAt).toISOString();
}
