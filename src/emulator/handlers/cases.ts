/** Create a case (4.10) and add a deed to a case (4.11). */
import { isCaseId } from '../../register/contract/rules';
import { AddDeedRequest, CreateCaseRequest, CreditorApplicant } from '../../register/contract/wire';
import type { CreditorApplicant as CreditorApplicantT } from '../../register/contract/wire';
import { ApiError, deedRule, fasNotAuthorised, invalidRequest } from '../errors';
import { jsonReply, type Handler } from '../context';
import { findTitle } from '../seed';
import { findCreditor } from '../seed/creditors';
import { findFas } from '../seed/organisations';
import type { CaseRecord } from '../types';
import { check, parseAll, rejectProblems, type FieldProblem } from '../validate';
import { existingTitle, requireStatus } from './common';

const requireBody = (body: unknown) => {
  if (body === undefined) throw invalidRequest('body', 'body: is required (a JSON object)');
  return body;
};

export const createCase: Handler = (ctx) => {
  const [req] = parseAll([{ schema: CreateCaseRequest, value: requireBody(ctx.body) }] as const);
  const account = findFas(req.agent.fas);
  if (!account || account.organisation !== ctx.caller.organisation) {
    throw fasNotAuthorised(req.agent.fas, 'is not an account of your organisation', 'agent.fas');
  }
  if (account.kind !== 'case') {
    throw fasNotAuthorised(req.agent.fas, 'is a title-information account; a case needs a case (agent) account', 'agent.fas');
  }
  const subject = req.subjects[0]!;
  const title = existingTitle(subject.titleNumber);
  requireStatus(title, ['REGISTERED'], 'a case');
  const record: CaseRecord = {
    id: ctx.env.store.newCaseId(),
    organisation: ctx.caller.organisation,
    reference: req.reference,
    private: false,
    seeded: false,
    agent: req.agent,
    subjects: req.subjects.map((s) => ({ ...s })),
    createdBy: ctx.caller.clientId,
    createdAt: ctx.now,
    deeds: [],
  };
  ctx.env.store.addCase(record);
  return jsonReply(ctx, { id: record.id });
};

const caseNotFound = (id: string) =>
  new ApiError(404, 'CASE_NOT_FOUND', `case ${id} was not found (unknown, private, or another organisation's)`, 'caseId');

export const addDeed: Handler = (ctx) => {
  const caseId = ctx.params.caseId ?? '';
  const problems: FieldProblem[] = isCaseId(caseId) ? [] : [{ field: 'caseId', rule: 'must be RLP, 2 digits and 8 uppercase letters' }];
  const parsed = check(AddDeedRequest, requireBody(ctx.body));
  if (!parsed.ok) problems.push(...parsed.problems);
  if (problems.length || !parsed.ok) rejectProblems(problems);
  const req = parsed.value;

  // Rule 1: the case is not private and belongs to the caller's organisation.
  const theCase = ctx.env.store.cases.get(caseId);
  if (!theCase || theCase.private || theCase.organisation !== ctx.caller.organisation) throw caseNotFound(caseId);

  // Rule 2: a single registered or draft title as subject.
  const subjectTitles = theCase.subjects.map((s) => findTitle(s.titleNumber));
  const title = subjectTitles[0];
  if (subjectTitles.length !== 1 || !title || (title.status !== 'REGISTERED' && title.status !== 'DRAFT')) {
    throw deedRule(
      'subjects',
      `case ${caseId} must have a single registered or draft title as subject (it has ${theCase.subjects.map((s) => `${s.titleNumber}${findTitle(s.titleNumber) ? ` ${findTitle(s.titleNumber)!.status}` : ''}`).join(', ')})`,
    );
  }

  // Discharge-only fields: deed type 1 over a registered title.
  const dischargeOverRegistered = req.deedType === '1' && title.status === 'REGISTERED';
  for (const field of ['securityId', 'mortgageNumbers'] as const) {
    if (req[field] !== undefined && !dischargeOverRegistered) {
      throw deedRule(
        field,
        `is only allowed for a discharge (deed type 1) over a registered title (this is deed type ${req.deedType} over a ${title.status.toLowerCase()} title)`,
      );
    }
  }
  if (req.securityId !== undefined && !title.securities.some((s) => s.id === req.securityId)) {
    throw new ApiError(
      404,
      'SECURITY_NOT_FOUND',
      `securityId: ${req.securityId} is not a security of title ${title.titleNumber}`,
      'securityId',
    );
  }

  // Applicants by deed type.
  const applicants = req.applicants ?? [];
  const isCreditor = (a: unknown) => CreditorApplicant.safeParse(a).success;
  if (req.deedType === '20') {
    if (applicants.length !== 1 || !isCreditor(applicants[0])) {
      throw deedRule(
        'applicants',
        'a standard security (deed type 20) needs exactly one creditor applicant {type: "CREDITOR", creditorCode}',
      );
    }
    const code = (applicants[0] as CreditorApplicantT).creditorCode;
    if (!findCreditor(code)) throw deedRule('applicants', `creditor code ${code} is not known (search the creditors first)`);
  } else if (req.deedType === '1') {
    if (applicants.length) throw deedRule('applicants', 'a discharge (deed type 1) takes no applicants');
  } else {
    const i = applicants.findIndex(isCreditor);
    if (i >= 0) throw deedRule(`applicants.${i}`, 'a disposition (deed type 11) takes parties as applicants, not a creditor');
  }

  const deed = { id: ctx.env.store.newDeedId(), caseId, clientId: ctx.caller.clientId, createdAt: ctx.now, request: req };
  ctx.env.store.addDeed(deed);
  return jsonReply(ctx, { id: deed.id });
};
