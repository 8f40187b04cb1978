import { editSchema } from './edit-schema.ts';
import { fail, ok } from './envelope.ts';
import { describeIssues } from './issues.ts';
import { sessionSchema } from './request-schemas.ts';
import { envelopeReply, type Handler } from './state.ts';

/** Edit (4.1): merge the fields sent into the chatbot's settings; omitted fields keep their value. Data 1. */
export const edit: Handler = (body, state) => {
  const parsed = editSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const { serialNumber, ...fields } = parsed.data;
  state.chat.edit(serialNumber, fields);
  return envelopeReply(ok(1));
};

/** GetSession (not shown by the spec; from the platform's public docs): a new session of the chatbot. */
export const session: Handler = (body, state) => {
  const parsed = sessionSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  return envelopeReply(ok({ SessionID: state.chat.openSession(parsed.data.serialNumber) }));
};
