import { fail, ok } from './envelope.ts';
import { describeIssues } from './issues.ts';
import { type AskRequest, askSchema } from './request-schemas.ts';
import { envelopeReply, type Handler, type StreamAnswer } from './state.ts';

/** Words per streamed piece: small enough that even a short answer arrives in several pieces. */
const WORDS_PER_PIECE = 3;

/**
 * ClientAsk (4.2). The answer is canned and deterministic, and says how many listings the session's
 * chatbot has, so a test can tell the question reached the right chatbot. The file rules of 4.2 that
 * need no file store are checked; file formats and sizes are not (the sandbox has no uploads).
 */
export const ask: Handler = (body, state) => {
  const parsed = askSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const request = parsed.data;
  const problem = checkFileRules(request);
  if (problem) return envelopeReply(fail(400, problem));
  const chatbot = state.chat.chatbotOf(request.sessionID);
  if (chatbot === undefined) {
    return envelopeReply(fail(400, `sessionID: no session ${request.sessionID}; open one with GetSession`));
  }
  const answer = cannedAnswer(request.content, state.listings.count(chatbot));
  const totalToken = countTokens(request.content) + countTokens(answer);
  const questionId = state.chat.nextMessageId();
  const answerId = state.chat.nextMessageId();
  if (!request.stream) {
    return envelopeReply(ok({ messageid: answerId, content: answer, totalToken, noAnswer: false }));
  }
  const stream: StreamAnswer = {
    pieces: splitPieces(answer),
    final: { QuestionID: questionId, AnswerID: answerId, Answer: answer, TotalToken: totalToken },
  };
  return { kind: 'stream', stream };
};

export function cannedAnswer(question: string, listingCount: number): string {
  return `Sandbox answer to "${question}": this chatbot has ${listingCount} listings.`;
}

/** Split an answer into pieces of a few words; joined back they give the answer exactly. */
export function splitPieces(answer: string): string[] {
  const words = answer.match(/\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_PIECE)
    pieces.push(words.slice(i, i + WORDS_PER_PIECE).join(''));
  return pieces;
}

function countTokens(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** The rules of 4.2 about content and fileIds that can be checked without the files themselves. */
function checkFileRules(request: AskRequest): string | undefined {
  const type = request.chatAskType ?? 'Text';
  const files = request.fileIds ?? [];
  if (type === 'Text') {
    if (files.length > 0) return 'fileIds: allowed only when chatAskType is Image, Audio or Video';
    if (request.content === '') return 'content: must not be empty when chatAskType is Text';
    return undefined;
  }
  if (type === 'Image' && files.length === 0) return 'fileIds: Image needs at least one file';
  if (type !== 'Image' && files.length !== 1) return `fileIds: ${type} needs exactly one file`;
  return undefined;
}
