/**
 * graphql-js quotes a rejected variable or literal in its error message ("got invalid value
 * "0877""). For a FAS number that is an account number in an error message: this plugin cuts
 * the quoted value out of every error about a FasNumber before the response is written.
 */
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const QUOTED_FAS = [
  [/got invalid value [\s\S]*?; (?=FasNumber )/, 'got an invalid value; '],
  [/found [\s\S]*?; (?=FasNumber )/, 'found an invalid value; '],
] as const;

export function redactFasMessage(message: string): string {
  return QUOTED_FAS.reduce<string>((text, [pattern, replacement]) => text.replace(pattern, replacement), message);
}

function redactErrors(errors: readonly GraphQLError[] | undefined): void {
  for (const error of errors ?? []) {
    if (error.message.includes('FasNumber')) {
      // GraphQLError.message is a plain writable property; its extensions are kept.
      (error as { message: string }).message = redactFasMessage(error.message);
    }
  }
}

export function fasRedactionPlugin(): Plugin {
  return {
    onResultProcess({ result }) {
      if (Array.isArray(result)) for (const r of result) redactErrors(r.errors);
      else if (result && typeof result === 'object' && 'errors' in result) redactErrors(result.errors as readonly GraphQLError[]);
    },
  };
}
