/** The emulator's internal model of a title (what the register holds), built once per title. */
import type { PendingApplication, PlanSummary, TitleDetails, TitleSecurity, TitleStatus } from '../../register/contract/wire';
import type { z } from 'zod';

export type PlanSummaryData = z.infer<typeof PlanSummary>;

export interface PlanDrawing {
  /** Boundary polygon in metres, relative to the plan centre (x east, y north). */
  polygon: [number, number][];
  /** Ordnance Survey map sheet reference printed on the plan. */
  mapReference: string;
  /** Map scale denominator, e.g. 1250 for 1:1250. */
  scale: number;
}

export interface PlanRecord {
  summary: PlanSummaryData;
  drawing: PlanDrawing;
  /** LAN50 only: the plan PDF is padded to EmulatorOptions.largePlanBytes. */
  large?: boolean;
}

export interface TitleRecord {
  titleNumber: string;
  status: TitleStatus;
  titleType: string;
  /** Full title sheet data, registered titles only. */
  details?: TitleDetails;
  /** Advance notices and pending applications (registered and draft titles). */
  pending: PendingApplication[];
  plans: PlanRecord[];
  /** The securities listing (2.10); each id is what a discharge names. */
  securities: TitleSecurity[];
}
