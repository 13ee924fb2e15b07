/**
 * The emulator's mutable state: tokens, quota usage, issued document/plan IDs, cases, deeds,
 * calls. Every change but a call record goes to the state sink (the state file, when there is
 * one) before it counts here, so what the emulator answers is what a restart finds.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { endOfLondonDay, londonDate } from '../register/contract/london-day';
import { seededCases } from './seed/cases';
import { IN_MEMORY, type KeptState, type StateSink } from './state-file';
import type { CallFilter, CallRecord, CaseRecord, DeedRecord, IssuedFile } from './types';

export interface Caller {
  clientId: string;
  organisation: string;
}

interface Token extends Caller {
  expiresAt: number;
}

/** A PDF body: fully built bytes, or a known length streamed in chunks (the LAN50 plan). */
export type PdfBody = { bytes: Uint8Array } | { length: number; chunks: () => AsyncIterable<Uint8Array> };

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Tokens are held by their SHA-256, as the state file keeps them. */
const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

export class Store {
  private readonly tokens = new Map<string, Token>();
  private readonly quota = new Map<string, number>();
  readonly documents = new Map<string, IssuedFile>();
  /** Built PDFs, generated once and kept: by document ID, or by `plan:<title>:<index>`. */
  readonly pdfs = new Map<string, Promise<PdfBody>>();
  readonly cases = new Map<string, CaseRecord>();
  readonly deeds: DeedRecord[] = [];
  readonly calls: CallRecord[] = [];

  constructor(
    private readonly tokenTtlSeconds: number,
    private readonly sink: StateSink = IN_MEMORY,
  ) {
    for (const c of seededCases()) this.cases.set(c.id, c);
  }

  /** The state a state file kept (its charges go to the ledger); expired tokens stay behind. */
  restore(kept: KeptState, now: Date): void {
    for (const t of kept.tokens) {
      if (t.expiresAt > now.getTime())
        this.tokens.set(t.hash, { clientId: t.clientId, organisation: t.organisation, expiresAt: t.expiresAt });
    }
    for (const q of kept.quota) this.quota.set(`${q.organisation}|${q.day}`, q.used);
    for (const f of kept.documents) this.documents.set(f.id, f);
    for (const c of kept.cases) this.cases.set(c.id, c);
    for (const d of kept.deeds) {
      this.cases.get(d.caseId)?.deeds.push(d);
      this.deeds.push(d);
    }
  }

  // ---------------------------------------------------------------- tokens
  issueToken(caller: Caller, now: Date): string {
    const token = randomBytes(24).toString('base64url');
    const hash = tokenHash(token);
    const kept = { ...caller, expiresAt: now.getTime() + this.tokenTtlSeconds * 1000 };
    this.sink.tokenIssued({ hash, ...kept });
    this.tokens.set(hash, kept);
    if (this.tokens.size > 10_000) this.sweepTokens(now);
    return token;
  }

  /** The caller of a live token; undefined when unknown or expired. */
  tokenCaller(token: string, now: Date): Caller | undefined {
    const t = this.tokens.get(tokenHash(token));
    if (!t) return undefined;
    if (now.getTime() >= t.expiresAt) return undefined;
    return { clientId: t.clientId, organisation: t.organisation };
  }

  liveTokens(now: Date): number {
    this.sweepTokens(now);
    return this.tokens.size;
  }

  private sweepTokens(now: Date) {
    const before = this.tokens.size;
    for (const [k, t] of this.tokens) if (now.getTime() >= t.expiresAt) this.tokens.delete(k);
    if (this.tokens.size < before) this.sink.tokensExpired(now.getTime());
  }

  // ---------------------------------------------------------------- quota
  /** Counts one call; false (and not counted) when the organisation's quota for the day is used up. */
  takeQuota(organisation: string, now: Date, dailyQuota: number): boolean {
    const day = londonDate(now);
    const key = `${organisation}|${day}`;
    const used = this.quota.get(key) ?? 0;
    if (used >= dailyQuota) return false;
    this.sink.quotaTaken(organisation, day, used + 1);
    this.quota.set(key, used + 1);
    return true;
  }

  quotaUsed(organisation: string, day: string): number {
    return this.quota.get(`${organisation}|${day}`) ?? 0;
  }

  // ---------------------------------------------------------------- documents and plans
  issueFile(file: Omit<IssuedFile, 'id' | 'expiresAt'>): IssuedFile {
    let id: string;
    do id = randomBytes(18).toString('base64url');
    while (this.documents.has(id));
    const issued: IssuedFile = { ...file, id, expiresAt: endOfLondonDay(file.issuedAt) };
    this.sink.fileIssued(issued);
    this.documents.set(id, issued);
    return issued;
  }

  /** A live file of that kind, for that client and title; undefined otherwise (404 for the caller). */
  findFile(id: string, kind: IssuedFile['kind'], clientId: string, titleNumber: string, now: Date): IssuedFile | undefined {
    const f = this.documents.get(id);
    if (!f || f.kind !== kind || f.clientId !== clientId || f.titleNumber !== titleNumber) return undefined;
    if (now.getTime() >= f.expiresAt.getTime()) return undefined;
    return f;
  }

  /** The PDF for a key, built by `build` the first time only. */
  pdf(key: string, build: () => Promise<PdfBody>): Promise<PdfBody> {
    let p = this.pdfs.get(key);
    if (!p) {
      p = build();
      this.pdfs.set(key, p);
      p.catch(() => this.pdfs.delete(key));
    }
    return p;
  }

  // ---------------------------------------------------------------- cases
  newCaseId(): string {
    let id: string;
    do {
      const digits = String(randomInt(0, 100)).padStart(2, '0');
      const letters = Array.from({ length: 8 }, () => UPPER[randomInt(0, 26)]).join('');
      id = `RLP${digits}${letters}`;
    } while (this.cases.has(id));
    return id;
  }

  newDeedId(): string {
    return `DA${randomBytes(8).toString('hex').toUpperCase()}`;
  }

  addCase(record: CaseRecord): void {
    this.sink.caseCreated(record);
    this.cases.set(record.id, record);
  }

  addDeed(deed: DeedRecord): void {
    const theCase = this.cases.get(deed.caseId);
    if (!theCase) throw new Error(`deed ${deed.id} for unknown case ${deed.caseId}`);
    this.sink.deedAdded(deed);
    theCase.deeds.push(deed);
    this.deeds.push(deed);
  }

  // ---------------------------------------------------------------- calls
  record(call: CallRecord) {
    this.calls.push(call);
  }

  countCalls(filter: CallFilter = {}): number {
    return this.calls.filter(
      (c) =>
        (filter.route === undefined || c.route === filter.route) &&
        (filter.method === undefined || c.method === filter.method) &&
        (filter.status === undefined || c.status === filter.status) &&
        (filter.clientId === undefined || c.clientId === filter.clientId),
    ).length;
  }
}
