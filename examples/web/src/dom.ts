/** The page's small DOM helpers: finding an element, making one, writing an error into one. */
import { GraphQLRequestError } from './client';

export const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (className) el.className = className;
  return el;
}

export function showError(target: HTMLElement, error: unknown) {
  const message =
    error instanceof GraphQLRequestError
      ? `${error.code ? `${error.code}: ` : ''}${error.message}`
      : 'The service did not answer: is `npm start` running?';
  target.replaceChildren(element('p', message, 'error'));
}
