import type { Readable, Writable } from 'node:stream';
import type { ReadStream } from 'node:tty';

const ENTER = new Set(['\r', '\n', '\u0004']);
const CTRL_C = '\u0003';
const BACKSPACE = new Set(['\u007f', '\b']);

/** The first line of a piped stdin (`echo "$PW" | npm run admin -- … --set-password`). */
async function firstLine(input: Readable): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** Reads one line at a terminal without echoing it. */
function typedUnseen(input: ReadStream, output: Writable, prompt: string): Promise<string> {
  output.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (ENTER.has(char)) return done();
        if (char === CTRL_C) return done(new Error('cancelled'));
        if (BACKSPACE.has(char)) typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

/**
 * `--set-password`: a password typed unseen twice at a terminal, or the first line of stdin when it
 * is piped. Never an argument: shell history and the process list would keep it.
 */
export async function readPassword(input: Readable & Partial<ReadStream>, output: Writable): Promise<string> {
  if (!input.isTTY || !input.setRawMode) return firstLine(input);
  const tty = input as ReadStream;
  const first = await typedUnseen(tty, output, 'Password: ');
  const again = await typedUnseen(tty, output, 'Password again: ');
  if (first !== again) throw new Error('the two passwords differ');
  return first;
}
