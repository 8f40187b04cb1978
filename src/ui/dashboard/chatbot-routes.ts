import type { Router } from 'express';
import { enqueueSettingsPush } from '../../queue/index.ts';
import { chatbotsPage } from './chatbots-page.ts';
import { lastPushes, pendingPushes } from './data.ts';
import { crossSite, type DashboardContext, notFound, wantsJson } from './route-context.ts';

/** The chatbots page and Push now. */
export function chatbotRoutes(router: Router, ctx: DashboardContext): void {
  router.get('/chatbots', async (_req, res) => {
    const config = ctx.getConfig();
    const feeds = new Map<string, string[]>();
    for (const f of config?.feeds ?? []) feeds.set(f.chatbot, [...(feeds.get(f.chatbot) ?? []), f.id]);
    const view = {
      chatbots: config?.chatbots ?? [],
      feeds,
      lastPush: await lastPushes(ctx.queue),
      pending: await pendingPushes(ctx.queue),
      readOnly: ctx.readOnly,
      now: ctx.now(),
    };
    ctx.send(res, 'Chatbots', 'chatbots', chatbotsPage(view));
  });

  router.post('/chatbots/:chatbot/push', async (req, res) => {
    const chatbot = ctx.getConfig()?.chatbots.find((c) => c.chatbot === req.params.chatbot);
    if (!chatbot?.settings)
      return void notFound(res, `no chatbot "${req.params.chatbot}" with settings in the config`);
    if (ctx.readOnly)
      return void res.status(403).send('read-only: set UI_USER and UI_PASSWORD to push settings');
    if (crossSite(req)) return void res.status(403).send('cross-site request refused');
    const jobId = await enqueueSettingsPush(ctx.queue, {
      chatbot: chatbot.chatbot,
      trigger: 'manual',
      force: true,
    });
    if (wantsJson(req)) return void res.status(202).json({ chatbot: chatbot.chatbot, jobId });
    res.redirect(303, '/chatbots');
  });
}
