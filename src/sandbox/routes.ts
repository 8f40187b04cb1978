/**
 * The operations the sandbox serves, at the paths of the spec (sections 4.1–4.6), written from the
 * spec and not taken from the client (src/api), so the two can disagree and a contract test can
 * catch it. GetSession is referred to but not shown by the spec; its path is the one the
 * platform's public documentation gives.
 */
export const PATHS = {
  edit: '/chat/Chatbot/Edit',
  session: '/chat/Chatbot/GetSession',
  ask: '/chat/Chat/ClientAsk',
  create: '/chat/Chatbot/RealEstateCreate',
  update: '/chat/Chatbot/RealEstateUpdate',
  list: '/chat/Chatbot/RealEstateList',
  delete: '/chat/Chatbot/RealEstateDelete',
} as const;

export type Operation = keyof typeof PATHS;
export const OPERATIONS = Object.keys(PATHS) as [Operation, ...Operation[]];
