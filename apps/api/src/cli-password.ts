import { createInterface } from 'node:readline';

/**
 * The password for a CLI command, never from its arguments (other users of the machine see a command line in `ps`,
 * and it stays in the shell's history): typed at a prompt that does not echo it (twice, to catch a typo), or the first
 * line of stdin when stdin is not a terminal (`printf '%s\n' "$PW" | npm run docflow -- create-user …`).
 */
export async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfStdin();
  const first = await promptHidden('Password: ');
  const again = await promptHidden('Password again: ');
  if (first !== again) throw new Error('the two passwords differ');
  return first;
}

async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

function promptHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // readline echoes what is typed through _writeToOutput: let the question through, nothing after it.
  const echo = rl as unknown as { _writeToOutput: (s: string) => void };
  let asked = false;
  const write = echo._writeToOutput.bind(rl);
  echo._writeToOutput = (s: string) => {
    if (!asked) write(s);
  };
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      process.stderr.write('\n');
      rl.close();
      resolve(answer);
    });
    asked = true;
  });
}
