/**
 * The local identity provider's two people (development only: these passwords are public, in
 * this file and in the README). Ann is a fee earner who may buy register documents; Ben is a
 * trainee who may look titles up and see his own charges, but not buy.
 */
import type { Scope } from '../../src/services/scopes';

export interface Person {
  /** What is typed into the login form, and the token's `sub`. */
  login: string;
  /** Development only. */
  password: string;
  name: string;
  email: string;
  /** The titlegraph scopes this person is granted. */
  scopes: readonly Scope[];
}

export const PEOPLE: readonly Person[] = [
  {
    login: 'ann',
    password: 'ann-dev-password',
    name: 'Ann Macleod',
    email: 'ann.macleod@firm-a.example',
    scopes: ['titles:read', 'titles:buy', 'charges:read'],
  },
  {
    login: 'ben',
    password: 'ben-dev-password',
    name: 'Ben Ross',
    email: 'ben.ross@firm-a.example',
    scopes: ['titles:read', 'charges:read'],
  },
];

export const findPerson = (login: string): Person | undefined => PEOPLE.find((person) => person.login === login);
