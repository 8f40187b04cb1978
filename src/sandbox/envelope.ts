/** The version string every sandbox envelope carries, so a log line shows who answered. */
export const SANDBOX_VERSION = '1.0-sandbox';

/** The common envelope of spec 4.0, as the sandbox writes it. */
export interface Envelope {
  Data: unknown;
  Version: string;
  Success: boolean;
  Code: number;
  Message: string;
}

export function ok(data: unknown): Envelope {
  return { Data: data, Version: SANDBOX_VERSION, Success: true, Code: 200, Message: '' };
}

export function fail(code: number, message: string): Envelope {
  return { Data: null, Version: SANDBOX_VERSION, Success: false, Code: code, Message: message };
}
