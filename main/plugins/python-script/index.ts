/**
 * `python-script`: the A2A reference's example agent. Writes a runnable Python script for the
 * topic from a template (template.ts), saves it as a `file` artifact and returns its id.
 */
import type { AgentContext, AgentRun } from '../../shared/plugin-api.js';
import type { JsonObject } from '../../shared/protocol.js';
import { renderPythonScript } from './template.js';

const run: AgentRun = async (input: JsonObject, ctx: AgentContext): Promise<JsonObject> => {
  // input_schema requires both as strings, and the host validates input before running.
  const topic = String(input.topic);
  const filename = String(input.filename);
  const script = renderPythonScript(topic, filename);
  ctx.log('INFO', `writing ${filename} from the ${script.kind} template`);
  ctx.signal.throwIfAborted();
  const artifact = await ctx.createArtifact({
    type: 'file',
    content: script.source,
    filename,
    mime_type: 'text/x-python',
    description: `Python script: ${topic}`,
  });
  return { artifact_id: artifact.artifact_id, filename, summary: script.summary };
};

export default run;
