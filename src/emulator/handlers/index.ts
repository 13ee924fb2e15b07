/** Route name → handler (token and openapi are answered by the server itself). */
import type { RouteName } from '../../register/contract/routes';
import type { Handler } from '../context';
import { addDeed, createCase } from './cases';
import { creditors } from './creditors';
import { downloadDocument, downloadPlan, orderDocument, purchasePlans } from './documents';
import { listPaths, referenceList } from './reference-lists';
import { pendingApplications, securities, titleDetails, titleSummary } from './titles';

export const HANDLERS: Record<Exclude<RouteName, 'token' | 'openapi'>, Handler> = {
  titleSummary,
  titleDetails,
  pendingApplications,
  orderDocument,
  downloadDocument,
  purchasePlans,
  downloadPlan,
  securities,
  creditors,
  createCase,
  addDeed,
  listPaths,
  referenceList,
};
