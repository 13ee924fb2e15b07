/**
 * Reference lists (4.12, 2.14): discovery, and one list in the basic (default), detailed or
 * ordered view, each with a strong ETag; If-None-Match answers 304 with no body.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ROUTES } from '../../register/contract/routes';
import { ListView, type BasicList, type DetailedList, type OrderedList } from '../../register/contract/wire';
import { ApiError } from '../errors';
import { jsonReply, type Handler } from '../context';
import { findReferenceList, REFERENCE_LISTS } from '../seed/reference-lists';
import { parseAll, queryObject } from '../validate';

export const listPaths: Handler = (ctx) =>
  jsonReply(
    ctx,
    REFERENCE_LISTS.map((l) => l.path),
  );

const ViewQuery = z.object({ view: ListView.optional() });

function represent(detailed: DetailedList, view: ListView): BasicList | DetailedList | OrderedList {
  const active = detailed.items.filter((i) => i.active !== false);
  if (view === 'detailed') return detailed;
  if (view === 'ordered') return active.map((i) => ({ label: i.label, value: i.value }));
  return Object.fromEntries(active.map((i) => [String(i.value), i.label]));
}

const etagCache = new Map<string, { etag: string; body: string }>();

/** Serialised body and strong ETag of one representation (stable: the lists are static). */
function representation(path: string, view: ListView, detailed: DetailedList) {
  const key = `${path}?${view}`;
  let entry = etagCache.get(key);
  if (!entry) {
    const body = JSON.stringify(ROUTES.referenceList.response.parse(represent(detailed, view)));
    entry = { body, etag: `"${createHash('sha256').update(key).update('\0').update(body).digest('base64url').slice(0, 27)}"` };
    etagCache.set(key, entry);
  }
  return entry;
}

/** RFC 9110 If-None-Match: weak comparison against a list of tags, or `*`. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export const referenceList: Handler = (ctx) => {
  const [{ view = 'basic' }] = parseAll([{ schema: ViewQuery, value: queryObject(ctx.query) }] as const);
  const path = ctx.params.path ?? '';
  const list = findReferenceList(path);
  if (!list) throw new ApiError(404, 'LIST_NOT_FOUND', `path: ${path} is not a reference list (see GET /ref for the list paths)`, 'path');
  const { body, etag } = representation(path, view, list.detailed);
  const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
  if (matches(ctx.headers['if-none-match'], etag)) return { status: 304, headers };
  return { status: 200, jsonText: body, headers };
};
