import type { Command } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import {
  type GlobalOptions,
  loadCliConfig,
  withConfigOption,
  withExamples,
  withJsonOption,
} from '../context.ts';

interface AskOptions extends GlobalOptions {
  chatbot: string;
  stream?: boolean;
  session?: number;
}

export function registerAsk(program: Command): void {
  const command = withExamples(program.command('ask'), [
    'feed-sync ask --chatbot 4f1c0d2e9a7b4c3d8e6f5a4b3c2d1e0f "Any 3-bedroom homes under $500k?" --stream',
  ])
    .description('send a message to a chatbot and print its answer')
    .argument('<question>', 'the message')
    .requiredOption('--chatbot <serial>', 'chatbot serial number')
    .option('--stream', 'print the answer piece by piece as it arrives')
    .option('--session <id>', 'reuse a chat session instead of opening one', (v) => Number.parseInt(v, 10));
  withJsonOption(withConfigOption(command)).action(async (question: string, options: AskOptions) => {
    const config = await loadCliConfig(options);
    const client = clientFromConfig(config);
    const input = {
      serialNumber: options.chatbot,
      content: question,
      ...(options.session === undefined ? {} : { sessionID: options.session }),
    };
    if (!options.stream) {
      const answer = await client.ask(input);
      process.stdout.write(options.json ? `${JSON.stringify(answer, null, 2)}\n` : `${answer.content}\n`);
      return;
    }
    for await (const event of client.askStream(input)) {
      if (options.json) process.stdout.write(`${JSON.stringify(event)}\n`);
      else if (event.type === 'piece') process.stdout.write(event.content);
      else if (event.type === 'final') process.stdout.write('\n');
    }
  });
}
