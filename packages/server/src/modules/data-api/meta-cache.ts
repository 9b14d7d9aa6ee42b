import { meta, type Caller, type DataModel, type MetaCube } from '@plinth/semantic';
import { stableJson } from './query-input.js';

/** Callers' answers kept per model: past this many (embed users, each their own), the model's are dropped and made again. */
const PER_MODEL = 1_000;

/**
 * `/v1/meta` answers per compiled model and caller: the SQL API asks for one on every statement,
 * and walking the model with the caller's policies costs more than the rest of a cached load. A
 * model is immutable once compiled, so its answers live as long as it does. The answers are
 * shared: whoever reads one must not change it.
 */
export class MetaCache {
  private readonly byModel = new WeakMap<DataModel, Map<string, { cubes: MetaCube[] }>>();

  of(model: DataModel, caller: Caller): { cubes: MetaCube[] } {
    let answers = this.byModel.get(model);
    if (!answers) this.byModel.set(model, (answers = new Map()));
    // The whole caller, as the result cache keys it: meta answers by every part of it.
    const key = stableJson(caller);
    let answer = answers.get(key);
    if (!answer) {
      if (answers.size >= PER_MODEL) answers.clear();
      answer = meta(model, caller);
      answers.set(key, answer);
    }
    return answer;
  }
}
