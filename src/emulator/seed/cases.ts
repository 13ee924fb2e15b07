/** Cases that exist "outside the API" (created in the register's user interface). */
import type { CaseRecord } from '../types';

const SEEDED_AT = new Date('2025-01-06T09:30:00Z');

function seeded(id: string, organisation: string, titleNumbers: string[], isPrivate = false): CaseRecord {
  return {
    id,
    organisation,
    reference: `Seeded case ${id}`,
    private: isPrivate,
    seeded: true,
    subjects: titleNumbers.map((titleNumber) => ({ type: 'REGISTERED', titleNumber })),
    createdAt: SEEDED_AT,
    deeds: [],
  };
}

/** Fresh copies each time (deeds are added to them). */
export function seededCases(): CaseRecord[] {
  return [
    seeded('RLP01PRIVCASE', 'ORG-A', ['MID15313'], true),
    seeded('RLP02ORGBCASE', 'ORG-B', ['MID15313']),
    seeded('RLP03DRAFTTTL', 'ORG-A', ['GLA5001']),
    // Extra fixtures for the deed subject rule (4.11 rule 2):
    seeded('RLP04CLOSEDTL', 'ORG-A', ['EDN42']),
    seeded('RLP05MULTITTL', 'ORG-A', ['MID15313', 'MID1234']),
    seeded('RLP06ORGACASE', 'ORG-A', ['MID15313']),
  ];
}
