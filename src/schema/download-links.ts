/** Where this server streams documents and plans from, and until when an id is valid. */
import { endOfLondonDay } from '../register/london-day';

export function documentDownloadPath(titleNumber: string, documentId: string): string {
  return `/downloads/titles/${encodeURIComponent(titleNumber)}/documents/${encodeURIComponent(documentId)}`;
}

export function planDownloadPath(titleNumber: string, planId: string): string {
  return `/downloads/titles/${encodeURIComponent(titleNumber)}/plans/${encodeURIComponent(planId)}`;
}

/** Ids are valid until the end of the register's day of issue (Europe/London). */
export function expiryOfIssue(issuedAt: Date): string {
  return endOfLondonDay(issuedAt).toISOString();
}
