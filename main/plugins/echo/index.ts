/**
 * `echo`: a diagnostic agent. Each optional input switch exercises one protocol path, in this
 * order: log lines, a cancellable delay, artifacts, a prompt, a failure; then it returns
 * `{ message, answer? }`.
 */
import type { AgentContext, AgentFailure, AgentRun, ArtifactSpec } from '../../shared/plugin-api.js';
import type { ArtifactType, JsonObject } from '../../shared/protocol.js';

interface EchoArtifact {
  type: ArtifactType;
  content: string;
  filename?: string;
  mime_type?: string;
  description?: string;
}

/** The input, as agent.json's input_schema guarantees it (the host validates before running). */
interface EchoInput {
  message: string;
  log_lines?: number;
  delay_ms?: number;
  artifacts?: EchoArtifact[];
  ask?: string;
  fail?: { code: string; message: string };
}

class EchoFailure extends Error implements AgentFailure {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EchoFailure';
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function toSpec(artifact: EchoArtifact): ArtifactSpec {
  const spec: ArtifactSpec = { type: artifact.type, content: artifact.content };
  if (artifact.filename !== undefined) spec.filename = artifact.filename;
  if (artifact.mime_type !== undefined) spec.mime_type = artifact.mime_type;
  if (artifact.description !== undefined) spec.description = artifact.description;
  return spec;
}

const run: AgentRun = async (rawInput: JsonObject, ctx: AgentContext): Promise<JsonObject> => {
  const input = rawInput as unknown as EchoInput;
  for (let line = 1; line <= (input.log_lines ?? 0); line++) {
    ctx.log('INFO', `echo log line ${line} of ${input.log_lines}`);
  }
  if (input.delay_ms !== undefined) await delay(input.delay_ms, ctx.signal);
  // A cancelled task should not go on producing artifacts or prompts.
  ctx.signal.throwIfAborted();
  for (const artifact of input.artifacts ?? []) {
    await ctx.createArtifact(toSpec(artifact));
    ctx.signal.throwIfAborted();
  }
  const output: JsonObject = { message: input.message };
  if (input.ask !== undefined) {
    output.answer = await ctx.requestInput(input.ask);
    ctx.signal.throwIfAborted();
  }
  if (input.fail) throw new EchoFailure(input.fail.code, input.fail.message);
  return output;
};

export default run;
