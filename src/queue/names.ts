/** The default of the config's `worker.prefix`, the namespace of the queue (see there). */
export { DEFAULT_PREFIX } from '../config/index.ts';

/** The one queue: both job kinds run on it, so one worker pool and one UI page serve both. */
export const QUEUE_NAME = 'feed-sync';

export const SYNC_FEED = 'sync-feed';
export const PUSH_SETTINGS = 'push-settings';

/** One run per feed / per chatbot at a time: the deduplication id and the scheduler id. */
export const feedKey = (feedId: string) => `${SYNC_FEED}:${feedId}`;
const RESUME_KICK = 'resume-';
/**
 * The job id of a feed's resume kick (`enqueueResume`): one per feed. BullMQ's custom ids may not
 * contain ':' nor be whole numbers.
 */
export const resumeKickId = (feedId: string) => `${RESUME_KICK}${encodeURIComponent(feedId)}`;
/** Whether a job is a resume kick: it only hands over to the feed's run, and is not one itself. */
export const isResumeKick = (job: { id?: string | undefined }) => job.id?.startsWith(RESUME_KICK) === true;
export const chatbotKey = (chatbot: string) => `${PUSH_SETTINGS}:${chatbot}`;
