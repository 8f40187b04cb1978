import { isLoopbackHost } from '../config/index.ts';
import type { Credentials } from './basic-auth.ts';

/** `UI_PASSWORD` as `.env.example` ships it: published, so it protects nothing. */
export const EXAMPLE_PASSWORD = 'change-me';
/** Shortest password accepted beyond loopback, where anyone on the network can try. */
export const MIN_PASSWORD_LENGTH = 12;

/**
 * Why the UI must not listen on `host` with these credentials, or undefined when it may: beyond
 * loopback only with credentials, never with the example password, and with a password of at least
 * 12 characters. Loopback is parsed from the address (`127.evil.example` is a name, not loopback).
 */
export function exposureProblem(host: string, credentials: Credentials | undefined): string | undefined {
  const refusing = `refusing to serve the queue UI on ${host}`;
  const loopback = isLoopbackHost(host);
  if (!credentials)
    return loopback ? undefined : `${refusing} without UI_USER and UI_PASSWORD (loopback only without them)`;
  if (credentials.password === EXAMPLE_PASSWORD)
    return `${refusing}: UI_PASSWORD is the example password from .env.example; set your own`;
  if (!loopback && credentials.password.length < MIN_PASSWORD_LENGTH)
    return `${refusing}: UI_PASSWORD is shorter than ${MIN_PASSWORD_LENGTH} characters (required beyond loopback)`;
  return undefined;
}
